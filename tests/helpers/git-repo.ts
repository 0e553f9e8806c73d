/**
 * A throwaway git repository with one commit on `main`, for the tests and the benchmarks that
 * dispatch into it. The identity comes from the environment: CI has no global git config.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

/**
 * Creates `repo` with a README committed on `main`. Synchronous because the bench builds its
 * world synchronously (bench/lib/world.ts); three short git runs block a test for a moment only,
 * and a test's `await` of it still reads the same.
 */
export function makeTestRepo(repo: string, readme: string): void {
  mkdirSync(repo, { recursive: true });
  // piped stderr: a failing git names its complaint in the thrown error
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_TEST_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), readme);
  git('add', 'README.md');
  git('commit', '-q', '-m', 'init');
}
