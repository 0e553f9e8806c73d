/**
 * Removes a worker's worktree the only safe way: `git worktree remove` without `--force`, then
 * prune. A dirty tree is unlanded work and an "in use" refusal means the worker is not stopped;
 * both are reported, never overridden, and a directory git does not own is never deleted.
 * The branch is left alone: deleting it is a separate decision (discarding unlanded work).
 */
import { dirname, join, resolve } from 'node:path';
import { pathThere } from './git-place.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { runGit } from './run-git.ts';
import { samePath, WORKTREES_DIR } from './worker-names.ts';
import { findRegisteredWorktree, pruneWorktrees } from './worktree-list.ts';
import { repoTopLevel } from './work-tree.ts';

export type RemoveOutcome = 'removed' | 'absent';

export async function removeWorktree(args: { repo: string; worktree: string }): Promise<RemoveOutcome> {
  const repo = await repoTopLevel(args.repo);
  const worktree = resolve(args.worktree);
  if (!samePath(dirname(worktree), join(repo, WORKTREES_DIR))) {
    throw new UsageError(
      'worktree-not-a-worker',
      `${worktree} is not a worker worktree of ${repo} (those live directly under ${join(repo, WORKTREES_DIR)}); nothing was removed.`,
      { worktree, repo },
    );
  }
  await pruneWorktrees(repo);
  const registered = await findRegisteredWorktree(repo, worktree);
  if (!registered) {
    if (await pathThere(worktree)) {
      throw new RefusedError('worktree-path-not-owned', `${worktree} exists but git does not own it; kingshand never deletes such a directory. Inspect it and remove it yourself if it is not needed.`, {
        worktree,
      });
    }
    return 'absent';
  }
  const r = await runGit(repo, ['worktree', 'remove', '--end-of-options', registered.path]);
  if (r.exitCode !== 0) {
    const said = (r.stderr || r.stdout || r.spawnError || '').trim();
    throw new RefusedError(
      'worktree-remove-refused',
      `git refused to remove ${worktree}: ${said}. Modified or untracked files are unlanded work (land or discard them); "in use" or locked means the worker is not stopped. kingshand never forces this.`,
      { worktree, stderr: r.stderr },
    );
  }
  await pruneWorktrees(repo);
  return 'removed';
}
