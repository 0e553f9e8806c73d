/**
 * Whether a worker's worktree path can be used, asked before dispatch creates anything: a
 * directory there that git does not own is refused then, so the refusal leaves no brief folder
 * and no `failed` record (it used to surface only when the worker's machine ran `prepare`).
 */
import { RefusedError } from '../../contract/errors.ts';
import { workerWorktreePath } from './worker-names.ts';
import { findRegisteredWorktree } from './worktree-list.ts';
import { pathThere } from './git-place.ts';

export function worktreeNotOwned(worktree: string): RefusedError {
  return new RefusedError(
    'worktree-path-not-owned',
    `${worktree} exists but git does not own it (not a registered worktree); nothing was changed. Move it aside (or delete it if you know it is not needed), then dispatch again.`,
    { worktree },
  );
}

/** Refuses when the worker's worktree path holds something git does not own; a registered worktree is left to createWorktree. */
export async function checkWorktreeSlot(repo: string, id: string): Promise<void> {
  const worktree = workerWorktreePath(repo, id);
  if (!(await pathThere(worktree))) return;
  if (await findRegisteredWorktree(repo, worktree)) return;
  throw worktreeNotOwned(worktree);
}
