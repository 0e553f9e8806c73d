/** A worker's worktree on a real repository, made through io/git as dispatch would. */
import { join } from 'node:path';
import { createWorktree } from '../../io/git/index.ts';
import { commitFile, git } from '../git/git-fixture.ts';

export async function workerWith(repo: string, base: string, commits: { file: string; message: string }[], id = 'T-1'): Promise<{ worktree: string; branch: string }> {
  const wt = await createWorktree({ repo, id, base });
  for (const c of commits) commitFile(wt.worktree, c.file, `${c.message}\n`, c.message);
  return { worktree: wt.worktree, branch: wt.branch };
}

export function head(repo: string, ref: string): string {
  return git(repo, 'rev-parse', ref);
}

/** Someone else's commit reaches origin/main after the clone; the local main stays behind it. */
export function upstreamCommit(fx: { root: string; repo: string; origin?: string }, file: string, message: string): void {
  const seed = join(fx.root, 'seed');
  commitFile(seed, file, `${file}\n`, message);
  git(seed, 'push', '-q', fx.origin!, 'main');
  git(fx.repo, 'fetch', '-q', 'origin');
}

/**
 * Someone else's commit on origin/main (see upstreamCommit), then a worker branched from
 * origin/main with one commit of its own: the state a landing onto a moved base starts from.
 */
export async function workerPastUpstream(fx: { root: string; repo: string; origin?: string }, upstream: { file: string; message: string }, mine: { file: string; message: string }): Promise<{ worktree: string; branch: string }> {
  upstreamCommit(fx, upstream.file, upstream.message);
  return workerWith(fx.repo, 'origin/main', [mine]);
}
