/**
 * Rule: a database from another state directory is refused, never adopted (issue 43). With a
 * worker running in tmux, fleet.db was replaced by another state directory's valid database and
 * the next `hand status` answered "no workers": the check compared the database's id with the
 * manifest's, but a state directory's first daemon wrote its manifest with no id (the database
 * did not exist yet when it looked), so the swap passed; and the manifest was then rewritten to
 * name the stranger, so even the next start could not tell. Now the database carries the
 * identity of its state directory (migration 10), the manifest names the database from its
 * first start, a stranger is refused with the way back (`hand daemon restore-db`), and nothing
 * in the state directory — the manifest least of all — is rewritten to match it.
 */
import { copyFileSync, existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld, stopDaemonAndWait } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';
import { killDaemon } from './fault-world.ts';
import { listBackups } from '../../persistence/state-integrity.ts';

let a: CliWorld;
let b: CliWorld;

/** A's fleet.db replaced by a copy of B's (its -wal and -shm gone with it, as a copy leaves them). */
function swapInTheOtherDatabase(): void {
  const db = join(a.home, 'fleet.db');
  for (const side of ['-wal', '-shm']) if (existsSync(db + side)) unlinkSync(db + side);
  copyFileSync(join(b.home, 'fleet.db'), db);
}

beforeAll(async () => {
  // Two state directories; A's first daemon is the one running when the database is swapped.
  a = await makeCliWorld('db-foreign-a', { daemonProcess: true });
  b = await makeCliWorld('db-foreign-b', { daemonProcess: true });
  expect((await b.hand(['annex', b.repo, '--yolo'])).code).toBe(0);
  await stopDaemonAndWait(b); // its database whole on disk (a clean stop checkpoints it)
  expect((await a.hand(['annex', a.repo, '--yolo'])).code).toBe(0);
  const d = await a.hand(['dispatch', 'w1', '--repo', a.repo, '--brief', a.brief('w1', 'MODE:hang long job'), '--agent', 'mock', '--json']);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  // The way back must hold w1: the daemon backs up a new worker two seconds after its dispatch.
  await waitFor(() => listBackups(a.home).some((bk) => workersIn(bk.path) === 1), { what: 'a backup of A holding w1', timeoutMs: 30_000 });
}, 120_000);

function workersIn(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM workers').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
afterAll(async () => {
  await a?.cleanup();
  await b?.cleanup();
});

describe('a database from another state directory is refused', () => {
  it('after a SIGKILL, another directory\'s valid database in fleet.db is refused with the way back; the manifest is not rewritten', async () => {
    await killDaemon(a);
    const manifestBefore = readFileSync(join(a.home, 'fleet.manifest.json'), 'utf8');
    swapInTheOtherDatabase();
    const s = await a.hand(['status', '--json']);
    expect(s.code, `status answered on a stranger's database: ${s.stdout}${s.stderr}`).toBe(1);
    expect(s.json.error.code).toBe('state-db-foreign');
    expect(s.json.error.message).toContain(b.home); // where it came from
    expect(s.json.error.message).toContain('hand daemon restore-db');
    expect(s.stdout).not.toMatch(/no workers/);
    expect(readFileSync(join(a.home, 'fleet.manifest.json'), 'utf8'), 'the manifest was rewritten to match the stranger').toBe(manifestBefore);

    // The way back the refusal names: the newest backup of A's own database.
    const r = await a.hand(['daemon', 'restore-db', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = await a.hand(['status', '--json']);
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect((after.json as Array<{ id: string; live: boolean | null }>).map((x) => [x.id, x.live])).toEqual([['w1', true]]);
    await stopDaemonAndWait(a);
  }, 120_000);

  it('a backup of another directory is refused by restore-db too, and a database that names no directory is refused where the manifest names another', async () => {
    const foreign = join(a.root, 'from-b.db');
    copyFileSync(join(b.home, 'fleet.db'), foreign);
    const r = await a.hand(['daemon', 'restore-db', '--from', foreign, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json.error.code).toBe('backup-foreign');
    // A database from before the identity (no home id): refused when its own id is not the manifest's.
    const stripped = join(a.root, 'stripped.db');
    copyFileSync(foreign, stripped);
    const db = new Database(stripped);
    db.exec('UPDATE store_identity SET home_id = NULL');
    db.close();
    const home = join(a.home, 'fleet.db');
    for (const side of ['-wal', '-shm']) if (existsSync(home + side)) unlinkSync(home + side);
    copyFileSync(stripped, home);
    const s = await a.hand(['status', '--json']);
    expect(s.code, s.stdout + s.stderr).toBe(1);
    expect(['state-db-foreign', 'state-db-lost']).toContain(s.json.error.code);
    expect(s.json.error.message).toContain('hand daemon restore-db');
    expect((await a.hand(['daemon', 'restore-db', '--json'])).code).toBe(0);
    expect(((await a.hand(['status', '--json'])).json as Array<{ id: string }>).map((x) => x.id)).toEqual(['w1']);
  }, 120_000);
});
