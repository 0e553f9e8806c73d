/**
 * The files and environment a `hand` world starts from, shared by the CLI tests
 * (tests/cli/cli-harness.ts) and the benchmarks (bench/lib/world.ts): a git repository with one
 * commit, a worker HOME past onboarding, briefs, and the environment workers are dispatched with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestRepo } from './git-repo.ts';
import { envWithoutHandHome } from './hand-process.ts';

/**
 * `<root>/repo` (README committed on main) and `<root>/agent-home`, whose `.claude.json` has
 * onboarding done so the (mock) agent starts at the box once dispatch's trust seed is in.
 */
export function seedWorld(root: string, readme: string): { repo: string; agentHome: string } {
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  writeFileSync(join(agentHome, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  makeTestRepo(repo, readme);
  return { repo, agentHome };
}

/** Writes `<root>/<name>.md`, a brief with the required `## Read first` section. */
export function writeBrief(root: string, name: string, task: string): string {
  const p = join(root, `${name}.md`);
  writeFileSync(p, `# Brief ${name}\n\n## Read first\n\nNothing.\n\n## Task\n\n${task}\n`);
  return p;
}

/**
 * This process's environment with HOME = the worker HOME, then `extra`. HAND_HOME is dropped:
 * the world's state directory is its `--home`, and the person's own must not leak into the
 * world's daemon or its workers.
 */
export function worldEnv(agentHome: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...envWithoutHandHome(), HOME: agentHome, ...extra };
}

/**
 * What a world's workers run with besides the caller's environment: the mock agent's tick, and a
 * git identity (workers that commit need one; CI has no global git config).
 */
export const WORKER_WORLD_ENV: Readonly<Record<string, string>> = {
  KH_MOCK_TICK_MS: '200',
  GIT_AUTHOR_NAME: 'worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid',
};
