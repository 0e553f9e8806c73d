/**
 * Every file kingshand writes is 0600 and every directory it makes 0700: the state directory
 * holds the fleet database, the daemon's log and pid, and briefs (with copies of the files a
 * worker must read). Before, fleet.db, daemon.log, daemon.pid and brief.md were 0644.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('private-files', { daemonProcess: true });
});
afterAll(async () => {
  await w.cleanup();
});

function walk(dir: string, out: { path: string; mode: number; kind: 'file' | 'dir' | 'other' }[] = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    const kind = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
    out.push({ path, mode: st.mode & 0o777, kind });
    if (kind === 'dir') walk(path, out);
  }
  return out;
}

describe('every file the tool writes is private', () => {
  it('the database, log, pid, lock, brief and read-path copies are 0600; directories 0700', async () => {
    expect((await w.hand(['annex', w.repo])).code).toBe(0);
    const spec = join(w.root, 'spec.md');
    writeFileSync(spec, 'the spec\n');
    chmodSync(spec, 0o644); // a copy must not inherit its source's mode
    const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('b', 'x'), '--read-path', spec, '--agent', 'mock', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const entries = walk(w.home);
    const names = entries.map((e) => e.path.slice(w.home.length + 1));
    for (const expected of ['fleet.db', 'daemon.log', 'daemon.pid', 'daemon.lock', 'daemon.out', 'workers/w1/brief.md', 'workers/w1/read-first/spec.md']) {
      expect(names, `${expected} was written`).toContain(expected);
    }
    const loose = entries.filter((e) => (e.kind === 'file' && e.mode !== 0o600) || (e.kind === 'dir' && e.mode !== 0o700));
    expect(loose.map((e) => `${e.path.slice(w.home.length + 1)} ${e.mode.toString(8)}`)).toEqual([]);
  });
});
