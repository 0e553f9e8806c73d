/**
 * Drives the real `hand` binary as a child process against a private state directory, so each
 * test has its own daemon, database and tmux server, and cleans all of them up.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/temp.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';

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
  hand: HandRunner;
  brief(name: string, task: string): string;
  cleanup(): Promise<void>;
}

export type HandRunner = (args: string[], opts?: { timeoutMs?: number; env?: Record<string, string> }) => Promise<RunResult>;

/** Runs `hand --home <home> …` as a child process with `env`, and parses its JSON output if any. */
export function handRunner(home: string, env: Record<string, string>, defaultTimeoutMs: number): HandRunner {
  return (args, opts = {}) =>
    new Promise((resolve) => {
      execFile(process.execPath, [HAND_BIN, '--home', home, ...args], { env: { ...env, ...opts.env }, timeout: opts.timeoutMs ?? defaultTimeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 1) : 0;
        let json: unknown = null;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
        resolve({ code, stdout, stderr, json });
      });
    });
}

/** Writes `<root>/<name>.md`, a brief with the required `## Read first` section. */
export function writeBrief(root: string, name: string, task: string): string {
  const p = join(root, `${name}.md`);
  writeFileSync(p, `# Brief ${name}\n\n## Read first\n\nNothing.\n\n## Task\n\n${task}\n`);
  return p;
}

const quietly = (cmd: string, args: string[]) => new Promise<void>((r) => execFile(cmd, args, () => r()));

/** Stops the daemon, its private tmux server and any daemon that did not stop on request. */
export async function stopInstallation(hand: HandRunner, home: string, daemonStopTimeoutMs: number): Promise<void> {
  await hand(['daemon', 'stop'], { timeoutMs: daemonStopTimeoutMs });
  const sock = join(home, 'tmux.sock');
  if (existsSync(sock)) await quietly('tmux', ['-S', sock, 'kill-server']);
  // a daemon that did not stop on request must not outlive the test
  await quietly('pkill', ['-f', `--home ${home}`]);
}

export async function makeCliWorld(label: string): Promise<CliWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  // Onboarding done, so the (mock) agent starts at the box once our trust seed is in.
  writeFileSync(join(agentHome, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  await makeTestRepo(repo, '# test repo\n');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: agentHome,
    KH_MOCK_TICK_MS: '200',
    // Workers that commit (landing tests) need an identity; CI has no global git config.
    GIT_AUTHOR_NAME: 'worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid',
  };
  delete env.HAND_HOME;
  const hand = handRunner(home, env, 60_000);
  return {
    root, home, repo, agentHome, env, hand,
    brief: (name, task) => writeBrief(root, name, task),
    async cleanup() {
      await stopInstallation(hand, home, 15_000);
      tmp.cleanup();
    },
  };
}
