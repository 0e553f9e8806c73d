/**
 * A throwaway git repository with one commit on `main`, for tests that dispatch into it. The
 * identity comes from the environment: CI has no global git config.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

/** Runs a program (argv, never a shell string) and rejects if it fails. */
export function run(cmd: string, args: string[], cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env: GIT_TEST_ENV }, (err) => (err ? reject(err) : resolve()));
  });
}

/** Creates `repo` with a README committed on `main`. */
export async function makeTestRepo(repo: string, readme: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  await run('git', ['init', '-q', '-b', 'main'], repo);
  writeFileSync(join(repo, 'README.md'), readme);
  await run('git', ['add', 'README.md'], repo);
  await run('git', ['commit', '-q', '-m', 'init'], repo);
}
