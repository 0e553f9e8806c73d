/**
 * Rule (issue 44): the suite's runner checks the machine first. Without Chromium, tmux or the ssh
 * tools, `npm test` used to run five minutes and then fail eleven files; now it says within a
 * second what is missing, with the one command that installs it, and runs nothing. A run of named
 * files goes ahead with the same lines as a warning.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binDir } from '../helpers/bin-dir.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tempDir = useTempDirs();

describe('npm test names what the machine lacks before anything runs', () => {
  it('missing chromium, tmux, socat and ssh: exit 1 in a second, each named with its package and the install command, no test started', () => {
    const root = tempDir('prereq');
    // git, sh, bwrap and node only: no tmux, socat, ssh; Chromium pointed at nothing.
    const path = binDir(root, 'bin', {}, { without: ['tmux'] });
    const started = Date.now();
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'test.mjs')], { cwd: ROOT, env: { PATH: path, HOME: root, KH_CHROMIUM: join(root, 'no-chromium') }, encoding: 'utf8', timeout: 30_000 });
    const took = Date.now() - started;
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(took, `${took} ms`).toBeLessThan(5_000);
    expect(r.stderr).toContain('The suite needs, and this machine lacks:');
    expect(r.stderr).toContain(`${join(root, 'no-chromium')} (Debian package chromium)`);
    for (const pkg of ['tmux', 'socat', 'openssh-client']) expect(r.stderr, pkg).toContain(`(Debian package ${pkg})`);
    expect(r.stderr).toContain('Install them: sudo apt-get update && sudo apt-get install -y tmux chromium socat openssh-client');
    expect(r.stdout, 'vitest never started').not.toMatch(/RUN|Test Files/);
  });
});
