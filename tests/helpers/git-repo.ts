/**
 * A throwaway git repository with one commit on `main`, for the tests and the benchmarks that
 * dispatch into it. The identity comes from the environment: CI has no global git config.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

/** Where the repositories makeTestRepo copies are kept: made once a README, beside the suite's other caches. */
const TEMPLATES = fileURLToPath(new URL('../../node_modules/.cache/kingshand/git-templates/', import.meta.url));

/** Bump when the steps below change. */
const TEMPLATE_RECIPE = 'init main, README committed as "init" by t <t@example.invalid>, v1';

/** The repository of `readme` that makeTestRepo copies, made with git the first time (a rename makes it whole at once). */
function templateOf(readme: string): string {
  // The recipe's version is in the name: a changed recipe never reuses a repository the old one made.
  const dir = join(TEMPLATES, createHash('sha256').update(`${TEMPLATE_RECIPE}\0${readme}`).digest('hex').slice(0, 16));
  if (existsSync(join(dir, '.git', 'HEAD'))) return dir;
  mkdirSync(TEMPLATES, { recursive: true });
  const making = mkdtempSync(join(TEMPLATES, 'making-'));
  // piped stderr: a failing git names its complaint in the thrown error
  const git = (...args: string[]) => execFileSync('git', args, { cwd: making, env: GIT_TEST_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(making, 'README.md'), readme);
  git('add', 'README.md');
  git('commit', '-q', '-m', 'init');
  try {
    renameSync(making, dir);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another test process made it first
  }
  return dir;
}

/**
 * Creates `repo` with a README committed on `main`: a copy of a repository git made once for that
 * README (three git runs a world, each a fork of the test process, were seconds of the suite's CPU).
 * Synchronous because the bench builds its world synchronously (bench/lib/world.ts).
 */
export function makeTestRepo(repo: string, readme: string): void {
  cpSync(templateOf(readme), repo, { recursive: true });
}
