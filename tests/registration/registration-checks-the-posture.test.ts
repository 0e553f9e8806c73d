/**
 * Registration checks the delivery posture: a push-capable posture needs an origin remote and
 * gh on PATH (logged in, when that can be told offline), a no-mistakes posture also needs the
 * no-mistakes binary; each refusal names its fix and registers nothing. `hand doctor` names the
 * install command for gh and no-mistakes. gh is the double in tests/doubles/gh (gh cannot run
 * here); annex sends the caller's environment, and each case also starts a daemon with that PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binDir, callerEnv, GH_DOUBLE } from '../helpers/bin-dir.ts';
import { useCliWorld } from '../helpers/cli-world.ts';


const makeWorld = useCliWorld();


describe('registration checks the posture', () => {
  it('refuses direct-PR without origin, without gh, and with gh logged out; accepts it once all are there', async () => {
    const w = await makeWorld('annex-posture');
    const bare = callerEnv(w.root, 'bin-bare');
    const withGh = callerEnv(w.root, 'bin-gh', { gh: GH_DOUBLE });
    const restart = async (env: Record<string, string>) => {
      await w.hand(['daemon', 'stop']);
      expect((await w.hand(['daemon', 'start'], { env })).code).toBe(0);
    };

    await restart(bare);
    const noOrigin = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: bare });
    expect(noOrigin.code).toBe(1);
    expect(noOrigin.json.error.code).toBe('posture-needs-origin');
    expect(noOrigin.json.error.message).toContain(`git -C ${w.repo} remote add origin`);
    expect((await w.hand(['projects', '--json'], { env: bare })).json).toEqual([]);

    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/shop.git'], { cwd: w.repo });
    const noGh = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: bare });
    expect(noGh.json.error.code).toBe('posture-needs-gh');
    expect(noGh.json.error.message).toMatch(/apt-get install gh.*gh auth login/s);

    await restart(withGh);
    const loggedOut = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: withGh });
    expect(loggedOut.json.error.code).toBe('posture-needs-gh-login');
    expect(loggedOut.json.error.message).toContain('gh auth login');
    expect((await w.hand(['projects', '--json'], { env: withGh })).json).toEqual([]);

    // gh's hosts.yml under the daemon's HOME says it is logged in (no network needed to tell).
    mkdirSync(join(w.agentHome, '.config', 'gh'), { recursive: true });
    writeFileSync(join(w.agentHome, '.config', 'gh', 'hosts.yml'), 'github.com:\n    user: acme\n    git_protocol: https\n');
    const ok = await w.hand(['annex', w.repo, '--posture', 'direct-PR', '--json'], { env: withGh });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ posture: 'direct-PR' });

    // no-mistakes also needs its gate binary.
    const nm = await w.hand(['annex', w.repo, '--posture', 'no-mistakes', '--json'], { env: withGh });
    expect(nm.json.error.code).toBe('posture-needs-no-mistakes');
    expect(nm.json.error.message).toContain('kunchenguid/no-mistakes');
    // local-only needs none of it.
    expect((await w.hand(['annex', w.repo, '--posture', 'local-only', '--json'], { env: bare })).code).toBe(0);
  });

  it('hand doctor checks gh and no-mistakes and names the install command for each', async () => {
    const w = await makeWorld('doctor-gh');
    const r = await w.hand(['doctor', '--json'], { env: { PATH: binDir(w.root, 'bin-bare') } });
    const byName = Object.fromEntries((r.json.checks as { name: string; ok: boolean; fix?: string }[]).map((c) => [c.name, c]));
    expect(byName.gh).toMatchObject({ ok: false });
    expect(byName.gh.fix).toMatch(/apt-get install gh.*gh auth login/s);
    expect(byName['no-mistakes']).toMatchObject({ ok: false });
    expect(byName['no-mistakes'].fix).toContain('kunchenguid/no-mistakes');
    const withGh = await w.hand(['doctor', '--json'], { env: { PATH: binDir(w.root, 'bin-gh', { gh: GH_DOUBLE }), GH_TOKEN: 'x' } });
    const gh = (withGh.json.checks as { name: string; ok: boolean; detail: string }[]).find((c) => c.name === 'gh')!;
    expect(gh.ok).toBe(true);
    expect(gh.detail).toContain('2.99.0-double');
  });
});
