/**
 * Drives the real `hand` binary as a child process against a private state directory, so each
 * test has its own daemon, database and tmux server, and cleans all of them up.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/temp.ts';

export const HAND_BIN = fileURLToPath(new URL('../../bin/hand.js', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export interface CliWorld {
  root: string;
  home: string;
  repo: string;
  agentHome: string;
  env: Record<string, string>;
  hand(args: string[], opts?: { timeoutMs?: number; env?: Record<string, string> }): Promise<RunResult>;
  brief(name: string, task: string): string;
  cleanup(): Promise<void>;
}

function git(cwd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } }, (err) => (err ? reject(err) : resolve()));
  });
}

export async function makeCliWorld(label: string): Promise<CliWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(repo);
  mkdirSync(agentHome);
  // Onboarding done, so the (mock) agent starts at the box once our trust seed is in.
  writeFileSync(join(agentHome, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  await git(repo, ['init', '-q', '-b', 'main']);
  writeFileSync(join(repo, 'README.md'), '# test repo\n');
  await git(repo, ['add', 'README.md']);
  await git(repo, ['commit', '-q', '-m', 'init']);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: agentHome,
    KH_MOCK_TICK_MS: '200',
    // Workers that commit (landing tests) need an identity; CI has no global git config.
    GIT_AUTHOR_NAME: 'worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid',
  };
  delete env.HAND_HOME;
  const hand: CliWorld['hand'] = (args, opts = {}) =>
    new Promise((resolve) => {
      execFile(process.execPath, [HAND_BIN, '--home', home, ...args], { env: { ...env, ...opts.env }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 1) : 0;
        let json: unknown = null;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
        resolve({ code, stdout, stderr, json });
      });
    });
  return {
    root, home, repo, agentHome, env, hand,
    brief(name, task) {
      const p = join(root, `${name}.md`);
      writeFileSync(p, `# Brief ${name}\n\n## Read first\n\nNothing.\n\n## Task\n\n${task}\n`);
      return p;
    },
    async cleanup() {
      await hand(['daemon', 'stop'], { timeoutMs: 15_000 });
      const sock = join(home, 'tmux.sock');
      if (existsSync(sock)) await new Promise<void>((r) => execFile('tmux', ['-S', sock, 'kill-server'], () => r()));
      // a daemon that did not stop on request must not outlive the test
      await new Promise<void>((r) => execFile('pkill', ['-f', `--home ${home}`], () => r()));
      tmp.cleanup();
    },
  };
}
