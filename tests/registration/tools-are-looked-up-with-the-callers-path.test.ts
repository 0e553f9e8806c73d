/**
 * Tools are looked up with the caller's environment on each request (issue 23 item 5): the
 * daemon kept the PATH it started with, so gh installed after the first `hand` call was "not on
 * PATH" to annex until `hand daemon stop`, and the refusal did not say why. Now the CLI sends
 * its environment with annex, nothing is cached, and annex and doctor name the PATH searched.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binDir } from '../helpers/bin-dir.ts';
import { useCliWorld } from '../helpers/cli-world.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');
const makeWorld = useCliWorld();

describe("tools are looked up with the caller's PATH on each request", () => {
  it('gh installed after the daemon started is found by the next annex, and a refusal names the PATH searched', async () => {
    const w = await makeWorld('tools-per-request');
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/shop.git'], { cwd: w.repo });
    const bare = { PATH: binDir(w.root, 'bin-bare'), GH_TOKEN: 'x' };
    // The daemon starts with a PATH that has no gh.
    expect((await w.hand(['daemon', 'start'], { env: bare })).code).toBe(0);
    const noGh = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: bare });
    expect(noGh.json.error.code).toBe('posture-needs-gh');
    expect(noGh.json.error.message).toContain(`searched PATH ${bare.PATH}`);

    // gh is "installed" (a new PATH entry) with the daemon still running.
    const withGh = { PATH: `${binDir(w.root, 'bin-gh', { gh: GH_DOUBLE })}:${bare.PATH}`, GH_TOKEN: 'x' };
    const ok = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: withGh });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ posture: 'direct-PR' });
    // And no "found" is cached either: the bare PATH is refused again.
    const again = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: bare });
    expect(again.json.error?.code).toBe('posture-needs-gh');
  });

  it('hand doctor says which PATH it searched for gh', async () => {
    const w = await makeWorld('doctor-path');
    const path = binDir(w.root, 'bin-bare');
    const r = await w.hand(['doctor', '--json'], { env: { PATH: path } });
    const gh = (r.json.checks as { name: string; detail: string }[]).find((c) => c.name === 'gh')!;
    expect(gh.detail).toContain(`searched PATH ${path}`);
  });
});
