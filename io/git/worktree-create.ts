/**
 * Creates or re-uses a worker's worktree. Re-dispatching the same id is ordinary (a worker
 * stopped at a dialog and was sent back), so the state found decides the action:
 *   registered with git        -> reuse as-is (work in progress kept)
 *   directory git doesn't own  -> refuse (never adopt or overwrite it)
 *   branch survives, no tree   -> check the branch out again (don't re-cut from a moved base)
 *   neither                    -> new branch from `base`
 */
import { pathPresent, worktreeNotOwned } from './worktree-slot.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { isWorkerBranchName } from './base-ref.ts';
import { ensureLocalExcludes } from './local-exclude.ts';
import { commitExists, gitOrRefuse } from './run-git.ts';
import { validateWorkerId, workerBranch, workerWorktreePath } from './worker-names.ts';
import { findRegisteredWorktree, pruneWorktrees } from './worktree-list.ts';
import { repoTopLevel } from './work-tree.ts';

export type WorktreeAction = 'created' | 'reused' | 'branch-checked-out';

export interface WorkerWorktree {
  worktree: string;
  branch: string;
  action: WorktreeAction;
}

async function branchExists(repo: string, branch: string): Promise<boolean> {
  const answer = await commitExists(repo, `refs/heads/${branch}`);
  if (answer === 'unknown') throw new RefusedError('git-unavailable', `could not ask git whether branch ${branch} exists in ${repo}.`, { repo, branch });
  return answer;
}


export async function createWorktree(args: { repo: string; id: string; base: string }): Promise<WorkerWorktree> {
  validateWorkerId(args.id);
  const repo = await repoTopLevel(args.repo);
  const branch = workerBranch(args.id);
  const worktree = workerWorktreePath(repo, args.id);

  await pruneWorktrees(repo);
  const registered = await findRegisteredWorktree(repo, worktree);
  if (registered) {
    if (!(await branchExists(repo, branch))) {
      throw new RefusedError(
        'worktree-not-a-worker',
        `${worktree} is a git worktree but branch ${branch} does not exist, so it is not a kingshand worker's checkout; nothing was changed. Use another id, or remove that worktree yourself if it is not needed.`,
        { worktree, branch },
      );
    }
    await ensureLocalExcludes(repo);
    return { worktree, branch, action: 'reused' };
  }
  if (pathPresent(worktree)) throw worktreeNotOwned(worktree);
  await ensureLocalExcludes(repo);
  if (await branchExists(repo, branch)) {
    // The branch outlived its worktree: keep its commits rather than re-branching from a base that may have moved.
    await gitOrRefuse(repo, ['worktree', 'add', '--end-of-options', worktree, branch], 'git-worktree-add', `checking out ${branch} at ${worktree}`);
    return { worktree, branch, action: 'branch-checked-out' };
  }
  if (isWorkerBranchName(args.base) || args.base.startsWith('-')) {
    throw new UsageError('base-ref-invalid', `base ${JSON.stringify(args.base)} is a worker branch or not a ref; cut workers from the integration branch (resolveBaseRef).`, { base: args.base });
  }
  if ((await commitExists(repo, args.base)) !== true) {
    throw new RefusedError('base-ref-missing', `base ${args.base} does not name a commit in ${repo}; nothing was created. Resolve the base again (fetch origin if it is a remote branch).`, {
      base: args.base,
      repo,
    });
  }
  await gitOrRefuse(repo, ['worktree', 'add', '-b', branch, '--end-of-options', worktree, args.base], 'git-worktree-add', `creating ${worktree} on ${branch} from ${args.base}`);
  return { worktree, branch, action: 'created' };
}
