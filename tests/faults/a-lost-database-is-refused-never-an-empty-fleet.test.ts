/**
 * Rule: a missing, empty or malformed fleet database is never read as "no workers". While the
 * state directory shows it held a fleet (its manifest, the workers' briefs, backups), the daemon
 * refuses to start, names the backup and the command that restores it, and touches nothing;
 * `hand daemon restore-db` then brings the fleet back. (Part of the fault suite: docs/fault-suite.md.)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld, stopDaemonAndWait } from '../cli/cli-harness.ts';

let w: CliWorld;

beforeAll(async () => {
  w = await makeCliWorld('db-loss', { daemonProcess: true });
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
  const d = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'work'), '--agent', 'mock', '--json']);
  expect(d.code, d.stderr).toBe(0);
  expect((await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
  // A clean stop takes the newest backup.
  await stopDaemonAndWait(w);
}, 90_000);
afterAll(async () => {
  await w?.cleanup();
});

/** Every file of the state directory that holds state, with a hash of its bytes. */
function stateFiles(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const key = rel ? `${rel}/${name}` : name;
      if (/^daemon\.(log|out|pid|lock|lock-journal)$|\.sock$/.test(name)) continue; // the lock and logs, not state
      const st = statSync(path);
      if (st.isDirectory()) walk(path, key);
      else if (st.isFile()) out[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(home, '');
  return out;
}

const damages: Array<{ kind: string; damage(db: string): void }> = [
  { kind: 'missing', damage: (db) => unlinkSync(db) },
  { kind: 'empty', damage: (db) => writeFileSync(db, '') },
  { kind: 'malformed', damage: (db) => writeFileSync(db, Buffer.alloc(8192, 0x5a)) },
];

describe('a lost database is refused, never read as an empty fleet', () => {
  for (const { kind, damage } of damages) {
    it(`${kind}: hand status refuses (exit 1), names the backup and restore-db, touches nothing; restore-db brings w1 back`, async () => {
      const db = join(w.home, 'fleet.db');
      for (const side of ['-wal', '-shm']) if (existsSync(db + side)) unlinkSync(db + side);
      damage(db);
      const before = stateFiles(w.home);
      const s = await w.hand(['status', '--json']);
      expect(s.code, s.stdout + s.stderr).toBe(1);
      expect(s.json.error.code).toBe('state-db-lost');
      expect(s.json.error.message).toMatch(/held 1 worker/);
      const newest = readdirSync(join(w.home, 'backups')).sort().at(-1)!;
      expect(s.json.error.message).toContain(join(w.home, 'backups', newest));
      expect(s.json.error.message).toContain('hand daemon restore-db');
      expect(s.stdout).not.toMatch(/no workers/);
      // Nothing touched: no database created, migrated or moved; no backup rotated away.
      expect(stateFiles(w.home)).toEqual(before);
      expect(existsSync(db)).toBe(kind !== 'missing');

      const r = await w.hand(['daemon', 'restore-db', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.json).toMatchObject({ restoredFrom: join(w.home, 'backups', newest), workers: 1, projects: 1 });
      const after = await w.hand(['status', '--json']);
      expect(after.code, after.stderr).toBe(0);
      expect((after.json as Array<{ id: string }>).map((x) => x.id)).toEqual(['w1']);
      await stopDaemonAndWait(w);
    }, 60_000);
  }

  it('restore-db refuses while a daemon runs, and changes nothing', async () => {
    expect((await w.hand(['status'])).code).toBe(0);
    const r = await w.hand(['daemon', 'restore-db', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('daemon-running');
    await stopDaemonAndWait(w);
  }, 60_000);
});
