/**
 * Creates or re-uses a worker's worktree. Re-dispatching the same id is ordinary (a worker
 * stopped at a dialog and was sent back), so the state found decides the action:
 *   registered with git        -> reuse as-is (work in progress kept)
 *   directory git doesn't own  -> refuse (never adopt or overwrite it)
 *   branch survives, no tree   -> check the branch out again (don't re-cut from a moved base)
 *   neither                    -> new branch from `base`
 */
import { worktreeNotOwned } from './worktree-slot.ts';
import { pathThere } from './git-place.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { isWorkerBranchName } from './base-ref.ts';
import { addLocalExcludes, excludeFileIn, localExcludeFile } from './local-exclude.ts';
import { commitExists, commitsExist, gitOrRefuse } from './run-git.ts';
import { validateWorkerId, workerBranch, workerWorktreePath } from './worker-names.ts';
import { findRegisteredWorktree, pruneWorktrees } from './worktree-list.ts';
import { repoFacts, type RepoFacts } from './work-tree.ts';

export type WorktreeAction = 'created' | 'reused' | 'branch-checked-out';

export interface WorkerWorktree {
  worktree: string;
  branch: string;
  action: WorktreeAction;
}

/** A branch probe's answer, read: 'unknown' (git could not tell) is a refusal, never a no. */
function branchAnswer(answer: boolean | 'unknown', repo: string, branch: string): boolean {
  if (answer === 'unknown') throw new RefusedError('git-unavailable', `could not ask git whether branch ${branch} exists in ${repo}.`, { repo, branch });
  return answer;
}

/**
 * Runs the steps that read or write git's worktree metadata (`.git/worktrees/`): list, prune and
 * add. The real ports pass a lane that runs one repository's at a time (concurrent `git worktree
 * add -b` raced on that metadata); by default they run at once.
 */
export type WorktreeLane = <T>(steps: () => Promise<T>) => Promise<T>;

/**
 * `facts`: what the caller has just asked git of `repo` (repoFacts: its top level and common git
 * directory, asked for this one preparation), so neither is asked again; without them both are
 * asked here, by one git process.
 */
export async function createWorktree(args: { repo: string; id: string; base: string; facts?: RepoFacts }, lane: WorktreeLane = (steps) => steps()): Promise<WorkerWorktree> {
  validateWorkerId(args.id);
  const facts = args.facts?.top === args.repo ? args.facts : await repoFacts(args.repo);
  const repo = facts.top;
  const branch = workerBranch(args.id);
  const worktree = workerWorktreePath(repo, args.id);
  // Read-only probes of refs and of the git directory, asked at once and outside the lane: no
  // other worker touches this worker's branch or the base, and none of them reads .git/worktrees/.
  // In the lane they made a fleet dispatched into one repository wait eight git calls per worker
  // instead of two (tests/faults: twelve workers, one repository, seconds of dispatch each).
  // Both refs in one git process where it can (commitsExist), else one each.
  const refs = [`refs/heads/${branch}`, args.base];
  const [excludeFile, known] = await Promise.all([facts.commonDir ? excludeFileIn(facts.commonDir) : localExcludeFile(repo), commitsExist(repo, refs)]);
  const [branchThere, baseThere] = await Promise.all(refs.map((ref) => known?.get(ref) ?? commitExists(repo, ref)));
  return lane(async () => {
    let registered = await findRegisteredWorktree(repo, worktree);
    // A hand-deleted worktree directory leaves a registration that blocks `add`: pruned, then
    // made again. Only this worker's own stale registration can block its add, so git is asked
    // to prune only when the list marks that one prunable (one git call fewer per worker).
    if (registered?.prunable) {
      await pruneWorktrees(repo);
      registered = await findRegisteredWorktree(repo, worktree);
    }
    if (registered) {
      if (!branchAnswer(branchThere, repo, branch)) {
        throw new RefusedError(
          'worktree-not-a-worker',
          `${worktree} is a git worktree but branch ${branch} does not exist, so it is not a kingshand worker's checkout; nothing was changed. Use another id, or remove that worktree yourself if it is not needed.`,
          { worktree, branch },
        );
      }
      await addLocalExcludes(excludeFile);
      return { worktree, branch, action: 'reused' as const };
    }
    if (await pathThere(worktree)) throw worktreeNotOwned(worktree);
    await addLocalExcludes(excludeFile);
    if (branchAnswer(branchThere, repo, branch)) {
      // The branch outlived its worktree: keep its commits rather than re-branching from a base that may have moved.
      await gitOrRefuse(repo, ['worktree', 'add', '--end-of-options', worktree, branch], 'git-worktree-add', `checking out ${branch} at ${worktree}`);
      return { worktree, branch, action: 'branch-checked-out' as const };
    }
    if (isWorkerBranchName(args.base) || args.base.startsWith('-')) {
      throw new UsageError('base-ref-invalid', `base ${JSON.stringify(args.base)} is a worker branch or not a ref; cut workers from the integration branch (resolveBaseRef).`, { base: args.base });
    }
    if (baseThere !== true) {
      throw new RefusedError('base-ref-missing', `base ${args.base} does not name a commit in ${repo}; nothing was created. Resolve the base again (fetch origin if it is a remote branch).`, {
        base: args.base,
        repo,
      });
    }
    await gitOrRefuse(repo, ['worktree', 'add', '-b', branch, '--end-of-options', worktree, args.base], 'git-worktree-add', `creating ${worktree} on ${branch} from ${args.base}`);
    return { worktree, branch, action: 'created' as const };
  });
}
