/**
 * A worktree deleted by hand while its worker runs (or after) was never noticed: `hand status`
 * showed nothing, and `hand land` later judged the empty branch and said "no changes". Both now
 * look at the directory itself. Only states that own a worktree are asked (the machine marks the
 * others `no-worktree`: before the worktree is made, and after landing or a rejected brief).
 */
import { existsSync } from 'node:fs';
import { RefusedError } from '../../contract/errors.ts';
import type { StateMark } from '../../contract/vocabulary.ts';
import { pathThere } from '../../io/git/git-place.ts';

/**
 * True when the worker's state says it has a worktree (no `no-worktree` mark) and the directory
 * is not there. A far worker's directory is on its host: status does not open an ssh channel per
 * row, so it is not called missing here; `land` asks its host (worktreeGone).
 */
export function worktreeMissing(v: { marks: readonly StateMark[]; worktree: string; host?: string }): boolean {
  if (v.host && v.host !== 'local') return false;
  return !v.marks.includes('no-worktree') && !existsSync(v.worktree);
}

/** The same question where git runs (git-place.ts): on a far worker's host, over ssh. */
export async function worktreeGone(v: { marks: readonly StateMark[]; worktree: string }): Promise<boolean> {
  return !v.marks.includes('no-worktree') && !(await pathThere(v.worktree));
}

/** The refusal `hand land` gives for a worker whose worktree is gone. */
export function worktreeMissingError(w: { id: string; worktree: string; branch: string }): RefusedError {
  return new RefusedError(
    'worktree-missing',
    `the worktree of ${w.id} (${w.worktree}) is missing: it was deleted outside kingshand, so whatever was not committed is gone and nothing was landed. ` +
      `Its branch ${w.branch} still holds what was committed: look at it (git log ${w.branch}), run git worktree prune, then stop the worker (hand stop ${w.id}) and land the branch by hand or dispatch again.`,
    { id: w.id, worktree: w.worktree, branch: w.branch },
  );
}
