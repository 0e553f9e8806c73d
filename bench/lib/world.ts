/**
 * A throwaway world for one benchmark: a temp dir holding a git repository, a worker HOME whose
 * `.claude.json` has onboarding done (so the mock agent's trust check passes once our trust seed
 * adds the worktree), and the environment workers are dispatched with.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './cleanup.ts';

export interface BenchWorld {
  root: string;
  repo: string;
  agentHome: string;
  /** Environment of a worker: the bench's own plus HOME and the mock agent's knobs. */
  workerEnv(extra?: Record<string, string>): Record<string, string>;
  brief(name: string): string;
  eventLog(name: string): string;
}

export function makeWorld(label: string): BenchWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `kh-bench-${label}-`)));
  onCleanup(`temp dir ${root}`, () => rmSync(root, { recursive: true, force: true }));
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(repo);
  mkdirSync(agentHome);
  mkdirSync(join(root, 'events'));
  writeFileSync(join(agentHome, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.invalid', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.invalid' };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: gitEnv });
  writeFileSync(join(repo, 'README.md'), '# bench repo\n');
  execFileSync('git', ['add', 'README.md'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: repo, env: gitEnv });
  return {
    root,
    repo,
    agentHome,
    workerEnv(extra = {}) {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME') env[k] = v;
      return { ...env, HOME: agentHome, KH_MOCK_TICK_MS: '100', KH_MOCK_REPLY_MS: '300', ...extra };
    },
    brief(name) {
      const p = join(root, `${name}.md`);
      writeFileSync(p, `# Brief ${name}\n\n## Read first\n\nNothing.\n\n## Task\n\nBenchmark worker: reply and wait.\n`);
      return p;
    },
    eventLog: (name) => join(root, 'events', `${name}.jsonl`),
  };
}
