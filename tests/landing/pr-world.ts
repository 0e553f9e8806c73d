/**
 * A world for the pull-request landings: a repository with a bare origin, and a daemon that finds
 * the gh (and no-mistakes) doubles only through the PATH each call sends (tests/doubles). Shared
 * by the direct-PR and quick-dispatch landing tests.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect } from 'vitest';
import { binDir } from '../helpers/bin-dir.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

export const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');
export const NM_DOUBLE = resolve(import.meta.dirname, '../doubles/no-mistakes/no-mistakes');

export function usePrWorld() {
  let world: CliWorld | null = null;
  afterEach(async () => {
    await world?.cleanup();
    world = null;
  });
  /** A world whose repo has a bare origin and whose daemon finds the gh (and no-mistakes) doubles. */
  async function prWorld(label: string) {
    const w = (world = await makeCliWorld(label));
    const bare = join(w.root, 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    execFileSync('git', ['-C', w.repo, 'remote', 'add', 'origin', bare]);
    execFileSync('git', ['-C', w.repo, 'push', '-q', 'origin', 'main']);
    const ghLog = join(w.root, 'gh.log');
    writeFileSync(ghLog, '');
    const env = { PATH: `${binDir(w.root, 'bin-doubles', { gh: GH_DOUBLE, 'no-mistakes': NM_DOUBLE })}:${process.env.PATH}`, GH_TOKEN: 'x', GH_DOUBLE_LOG: ghLog, NO_MISTAKES_DOUBLE_STATE: join(w.root, 'nm.json') };
    Object.assign(w.env, env);
    // The daemon starts with a PATH holding neither double: each tool is found with the PATH the
    // CLI sends along with land and approve (as after installing gh with the daemon running).
    expect((await w.hand(['daemon', 'start'], { env: { PATH: binDir(w.root, 'bin-bare') } })).code).toBe(0);
    return { w, bare, ghLog };
  }

  async function workerCommits(w: CliWorld, id: string, extra: string[] = []): Promise<void> {
    const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Make the change.'), '--agent', 'mock', '--json', ...extra], { env: { KH_MOCK_RUN_BASH: '1' } });
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect((await w.hand(['approve', id, '--json'])).code).toBe(0);
    expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    expect((await w.hand(['send', id, `MODE:bash[[echo f > f.txt && git add f.txt && git commit -q -m "Add the f file"]]`])).code).toBe(0);
    expect((await w.hand(['wait', id, '--until', 'blocked', '--timeout', '30s', '--json'])).json.blockedReason).toBe('permission');
    expect((await w.hand(['keys', id, 'enter'])).code).toBe(0);
    expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    expect((await w.hand(['send', id, `MODE:report ${d.json.reportPath}`])).code).toBe(0);
    expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
  }

  function storedSnapshot(w: CliWorld, id: string): string {
    const db = new Database(join(w.home, 'fleet.db'), { readonly: true, fileMustExist: true });
    try {
      return String((db.prepare('SELECT snapshot_json FROM workers WHERE id = ?').get(id) as { snapshot_json: string }).snapshot_json);
    } finally {
      db.close();
    }
  }

  return { prWorld, workerCommits, storedSnapshot };
}
