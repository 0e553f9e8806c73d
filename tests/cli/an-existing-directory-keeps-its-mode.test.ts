/**
 * A directory given as the state directory that kingshand did not create keeps its mode: a
 * 1777 directory used to lose its sticky bit (chmod 0700), and `--home /tmp` or `--home ~`
 * would have done the same. One that is not empty must already be a state directory; one that
 * others can write is refused, not "fixed". Only a directory kingshand makes is made 0700.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp.ts';
import { handRunner, stopInstallation } from '../helpers/hand-process.ts';

let tmp: ReturnType<typeof makeTempDir>;
const started: string[] = [];
beforeAll(() => {
  tmp = makeTempDir('home-mode');
});
afterAll(async () => {
  for (const home of started) await stopInstallation(handRunner(home, env(), 15_000), home, 15_000);
  tmp.cleanup();
});

function env(): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME') e[k] = v;
  return e;
}
const hand = (home: string, args: string[]) => {
  started.push(home);
  return handRunner(home, env(), 30_000)(args);
};
const modeOf = (p: string) => statSync(p).mode & 0o7777;

describe('an existing directory keeps its mode', () => {
  it('a sticky world-writable directory is refused and keeps 1777', async () => {
    const dir = join(tmp.path, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const r = await hand(dir, ['daemon', 'start']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/writable by other users.*left alone/);
    expect(modeOf(dir)).toBe(0o1777);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a non-empty directory that is not a state directory (a home folder) is refused, untouched', async () => {
    const dir = join(tmp.path, 'person');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, '.bashrc'), '# mine\n');
    const r = await hand(dir, ['daemon', 'start']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir} is not empty and is not a kingshand state directory`);
    expect(modeOf(dir)).toBe(0o755);
    expect(readdirSync(dir)).toEqual(['.bashrc']);
  });

  it('an empty private-enough directory is used as it is; its mode is not changed', async () => {
    const dir = join(tmp.path, 'mine');
    mkdirSync(dir);
    chmodSync(dir, 0o750);
    const r = await hand(dir, ['daemon', 'start']);
    expect(r.code, r.stderr).toBe(0);
    expect(modeOf(dir)).toBe(0o750);
    // and it is a state directory from now on: the next command accepts it
    expect((await hand(dir, ['daemon', 'status'])).code).toBe(0);
  });

  it('a directory kingshand creates is 0700', async () => {
    const dir = join(tmp.path, 'fresh', 'state');
    const r = await hand(dir, ['daemon', 'start']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'fleet.db'))).toBe(true);
    expect(modeOf(dir)).toBe(0o700);
  });
});
