/**
 * Whether a worker's worktree path can be used, asked before dispatch creates anything: a
 * directory there that git does not own is refused then, so the refusal leaves no brief folder
 * and no `failed` record (it used to surface only when the worker's machine ran `prepare`).
 */
import { RefusedError } from '../../contract/errors.ts';
import { workerWorktreePath } from './worker-names.ts';
import { findRegisteredWorktree } from './worktree-list.ts';
import { farTarget, pathThere } from './git-place.ts';
import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export function worktreeNotOwned(worktree: string): RefusedError {
  return new RefusedError(
    'worktree-path-not-owned',
    `${worktree} exists but git does not own it (not a registered worktree); nothing was changed. Move it aside (or delete it if you know it is not needed), then dispatch again.`,
    { worktree },
  );
}

/**
 * The worktrees are made inside the repository, under `.claude/worktrees/`: where `.claude` or
 * `.claude/worktrees` is a link (to a directory outside), every worker — its checkout, its
 * settings, its trust — would land wherever that link points (issue 43). Refused, naming it.
 */
function refuseLinkedWorktreesDir(repo: string): void {
  if (farTarget()) return;
  for (const rel of ['.claude', join('.claude', 'worktrees')]) {
    const path = join(repo, rel);
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      continue;
    }
    if (link) {
      let to = '?';
      try {
        to = readlinkSync(path);
      } catch {
        // unreadable link: named without its target
      }
      throw new RefusedError('worktrees-dir-is-a-link', `${path} is a symbolic link (to ${JSON.stringify(to)}); a worker's worktree, settings and trust would be made wherever it points, not in this repository. Nothing was created. Replace the link with a directory (or remove it), then dispatch again.`, { path, to });
    }
  }
}

/** Refuses when the worker's worktree path holds something git does not own; a registered worktree is left to createWorktree. */
export async function checkWorktreeSlot(repo: string, id: string): Promise<void> {
  refuseLinkedWorktreesDir(repo);
  const worktree = workerWorktreePath(repo, id);
  if (!(await pathThere(worktree))) return;
  if (await findRegisteredWorktree(repo, worktree)) return;
  throw worktreeNotOwned(worktree);
}
