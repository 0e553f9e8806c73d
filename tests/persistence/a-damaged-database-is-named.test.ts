/**
 * Garbage inside fleet.db is named as the cause wherever it shows: the CLI says the daemon refused
 * to start because the database cannot be read (not "exited with status 0" and a stack trace, with
 * the cause only in daemon.out) and names the backup and the command that restores it,
 * `hand doctor` fails the database check with that command, `daemon run` exits non-zero, and
 * nothing an earlier run wrote to daemon.out is passed off as this start's output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, closeSync, openSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
let db: string;
beforeAll(async () => {
  w = await makeCliWorld('damaged-db', { daemonProcess: true });
  expect((await w.hand(['annex', w.repo])).code).toBe(0);
  expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
  db = join(w.home, 'fleet.db');
  // wait for the daemon to let go: the lock holder's pid file goes at its clean exit
  const { waitFor } = await import('../helpers/temp.ts');
  const { readLockHolder } = await import('../../persistence/home-lock.ts');
  await waitFor(() => readLockHolder(w.home) === null, { what: 'the stopped daemon to release the home' });
  // The first pages (header, schema) stay whole; every table page after them is garbage.
  const size = statSync(db).size;
  const fd = openSync(db, 'r+');
  writeSync(fd, randomBytes(size - 8192), 0, size - 8192, 8192);
  closeSync(fd);
  appendFileSync(join(w.home, 'daemon.out'), 'hand: a stale line from an earlier run\n');
}, 60_000);
afterAll(async () => {
  await w.cleanup();
});

describe('a damaged database is named', () => {
  it('the CLI names the damage as the cause, with no stack trace and no stale lines', async () => {
    const r = await w.hand(['status']);
    // A refusal (exit 1), not an unreachable daemon: the database is the record, never read as empty.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hand: refused to start: the state database .*fleet\.db cannot be read as a database \(database disk image is malformed\)/);
    expect(r.stderr).toContain('hand daemon restore-db');
    expect(r.stderr).not.toContain('stale line');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('status 0');
  });

  it('hand doctor fails the database check and says how to move it aside', async () => {
    const r = await w.hand(['doctor', '--json']);
    expect(r.code).toBe(1);
    const check = r.json.checks.find((c: { name: string }) => c.name === 'fleet database');
    expect(check).toMatchObject({ ok: false });
    expect(check.detail).toMatch(/is damaged: database disk image is malformed/);
    expect(check.fix).toContain('hand daemon restore-db');
  });

  it('daemon run exits non-zero when it cannot start', async () => {
    const r = await w.hand(['daemon', 'run'], { timeoutMs: 30_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot be read as a database \(database disk image is malformed\)/);
  });
});
