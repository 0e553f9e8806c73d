/**
 * Registration checks the delivery posture: a push-capable posture needs an origin remote and
 * gh on PATH (logged in, when that can be told offline), a no-mistakes posture also needs the
 * no-mistakes binary; each refusal names its fix and registers nothing. `hand doctor` names the
 * install command for gh and no-mistakes. gh is the double in tests/doubles/gh (gh cannot run
 * here); the daemon reads PATH at its start, so each case starts a daemon with its own PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

function which(cmd: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A PATH with exactly node, git and tmux (and the listed extras): nothing else the machine has. */
function binDir(root: string, name: string, extras: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const cmd of ['git', 'tmux', 'sh']) {
    const p = which(cmd);
    if (p) symlinkSync(p, join(dir, cmd));
  }
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const [cmd, target] of Object.entries(extras)) symlinkSync(target, join(dir, cmd));
  return dir;
}

describe('registration checks the posture', () => {
  it('refuses direct-PR without origin, without gh, and with gh logged out; accepts it once all are there', async () => {
    world = await makeCliWorld('annex-posture');
    const w = world;
    const bare = { PATH: binDir(w.root, 'bin-bare'), GH_TOKEN: '', GITHUB_TOKEN: '' };
    const withGh = { PATH: binDir(w.root, 'bin-gh', { gh: GH_DOUBLE }), GH_TOKEN: '', GITHUB_TOKEN: '' };
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
    world = await makeCliWorld('doctor-gh');
    const w = world;
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
