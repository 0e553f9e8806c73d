/**
 * A file kingshand hides from a worker stays hidden when the host replaces it while the worker
 * runs. The host writes many of them atomically — a new file renamed over the old path (useradd
 * and passwd do it to /etc/shadow, the person's own Claude Code to ~/.claude.json, npm to
 * ~/.npmrc) — and an empty file bound over the old one covered only the old one: the suite's ssh
 * tests added a user while an OpenCode worker ran, and the worker read the new /etc/shadow. The
 * attack here: a worker in kingshand's real sandbox (bubblewrap) waits; the person's
 * ~/.claude.json and ~/.npmrc are replaced by rename on the host; the worker reads each path.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerSandbox, type WorkerSandboxPlace } from '../../io/sandbox/worker-sandbox.ts';
import { probeSandbox } from '../../io/sandbox/availability.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { waitFor } from '../helpers/temp.ts';

const tempDir = useTempDirs();

describe('a hidden file replaced on the host stays hidden', () => {
  it("~/.claude.json and ~/.npmrc renamed over on the host while the worker runs: the worker reads neither the old nor the new; the home's other files as they were", async () => {
    const sandbox = probeSandbox(process.env);
    expect(sandbox.ok, `kingshand's sandbox runs here: ${sandbox.ok ? '' : sandbox.reason}`).toBe(true);
    const root = tempDir('hidden-rename');
    const home = join(root, 'home');
    const state = join(root, 'state');
    const worktree = join(root, 'wt');
    const briefDir = join(state, 'workers', 'w1');
    for (const d of [home, state, worktree, briefDir]) mkdirSync(d, { recursive: true });
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ primaryApiKey: 'OLD-SECRET' }));
    writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=OLD-TOKEN\n');
    writeFileSync(join(home, 'notes.txt'), 'the person\'s notes\n');
    const place: WorkerSandboxPlace = { id: 'w1', agent: 'mock', worktree, briefDir, reportDir: briefDir, stateDir: state, repo: worktree, gitCommonDir: null, worktreeGitDir: null, pinnedRefs: [], needs: [] };
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const go = join(worktree, 'go');
    const ready = join(worktree, 'ready');
    // Inside: say it is up, wait until told, then say what each path holds.
    const script = `: > ${ready}; while [ ! -e ${go} ]; do sleep 0.05; done; for f in .claude.json .npmrc notes.txt; do printf '%s=' "$f"; cat "$HOME/$f" 2>/dev/null | tr -d '\\n'; echo; done`;
    const box = workerSandbox(place, env, ['/bin/sh', '-c', script], sandbox.bwrap!);
    const child = spawn(box.argv[0]!, box.argv.slice(1), { env: box.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The sandbox is made once the worker's process runs inside it (its worktree is shared).
    await waitFor(() => existsSync(ready), { what: 'the sandboxed worker running', timeoutMs: 10_000, intervalMs: 20 });
    // The host replaces both files by rename, as an atomic writer does.
    for (const [name, text] of [['.claude.json', JSON.stringify({ primaryApiKey: 'NEW-SECRET' })], ['.npmrc', '//registry.npmjs.org/:_authToken=NEW-TOKEN\n']] as const) {
      writeFileSync(join(home, `${name}.tmp`), text);
      renameSync(join(home, `${name}.tmp`), join(home, name));
    }
    writeFileSync(go, '');
    const code = await exited;
    expect(code, err).toBe(0);
    const seen = Object.fromEntries(out.trim().split('\n').map((l) => l.split('=', 2) as [string, string]));
    expect(seen).toEqual({ '.claude.json': '', '.npmrc': '', 'notes.txt': "the person's notes" });
    expect(out).not.toMatch(/SECRET|TOKEN/);
    // On the host, the person's files are the new ones, untouched by the sandbox.
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toContain('NEW-SECRET');
  }, 30_000);
});
