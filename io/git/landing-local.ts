/**
 * Landing for `local-only` projects: the worker's branch is fast-forwarded into the base branch,
 * and nothing else — no merge commit, no rebase, no force (control-plane §4.1 Step 8). A base
 * that moved on is refused with the fix, never reconciled on the person's behalf.
 */
import { RefusedError } from '../../contract/errors.ts';
import { commitExists, commitOf, gitOrRefuse, runGit } from './run-git.ts';
import { listWorktrees } from './worktree-list.ts';

export interface LocalLanding {
  /** Local branch that received the commits. */
  target: string;
  from: string;
  to: string;
  /** How the branch moved: a merge in the checkout that has it, or a ref update when none does. */
  via: 'merge --ff-only' | 'update-ref';
  warnings: string[];
}

/** The local branch a recorded base lands into: `origin/main` -> `main`, `dev` -> `dev`. */
export function landingTarget(base: string): string {
  return base.replace(/^origin\//, '');
}

/** argv for the fast-forward in the checkout that has the target branch. */
export function fastForwardArgv(branch: string): string[] {
  return ['merge', '--ff-only', '--no-edit', `refs/heads/${branch}`];
}

/** argv for moving a branch no checkout has: compare-and-swap on the old value, so a race refuses. */
export function updateRefArgv(target: string, to: string, from: string, branch: string): string[] {
  return ['update-ref', '-m', `kingshand: fast-forward ${target} to ${branch}`, `refs/heads/${target}`, to, from];
}

async function sha(repo: string, ref: string): Promise<string> {
  return (await gitOrRefuse(repo, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], 'git-rev-parse', `resolving ${ref}`)).trim();
}

/** Commits the local target lacks from origin's copy: they would ride along with the landing. */
async function behindOrigin(repo: string, target: string): Promise<number | null> {
  if ((await commitExists(repo, `refs/remotes/origin/${target}`)) !== true) return null;
  const r = await runGit(repo, ['rev-list', '--left-right', '--count', `refs/heads/${target}...refs/remotes/origin/${target}`]);
  if (r.exitCode !== 0) return null;
  const [, behind] = r.stdout.trim().split(/\s+/);
  return Number(behind);
}

export async function landLocalOnly(args: { repo: string; branch: string; base: string; worktree?: string }): Promise<LocalLanding> {
  const { repo, branch } = args;
  const target = landingTarget(args.base);
  // One git process both checks and resolves the target.
  const from = await commitOf(repo, `refs/heads/${target}`);
  if (from === null || from === 'unknown') {
    throw new RefusedError('landing-target-missing', `there is no local branch ${target} to land into; nothing was landed. Create it from the base (git branch ${target} ${args.base}) and land again.`, { target });
  }
  const to = await sha(repo, `refs/heads/${branch}`);
  const anc = await runGit(repo, ['merge-base', '--is-ancestor', from, to]);
  if (anc.exitCode === 1) {
    const id = branch.replace(/^worktree-/, '');
    throw new RefusedError(
      'landing-not-fast-forward',
      `${target} has moved on since ${branch} was cut, so it cannot be fast-forwarded; nothing was landed. Run hand land ${id} again: it says whether the branch applies cleanly onto ${target} now (then hand land ${id} --rebase rebases it in its worktree) or which files conflict. kingshand never makes a merge commit or forces.`,
      { target, branch, from, to },
    );
  }
  if (anc.exitCode !== 0) throw new RefusedError('git-unavailable', `could not ask git whether ${target} can fast-forward to ${branch}: ${anc.stderr.trim()}`, { target, branch });
  const warnings: string[] = [];
  const behind = await behindOrigin(repo, target);
  if (behind && behind > 0) {
    warnings.push(`local ${target} is ${behind} commit(s) behind origin/${target}; those commits ride along with this landing (the worker was cut from origin/${target}).`);
  }
  const checkout = (await listWorktrees(repo)).find((w) => w.branch === target);
  if (checkout) {
    await gitOrRefuse(checkout.path, fastForwardArgv(branch), 'landing-merge-refused', `fast-forwarding ${target} in ${checkout.path}`);
    return { target, from, to, via: 'merge --ff-only', warnings };
  }
  await gitOrRefuse(repo, updateRefArgv(target, to, from, branch), 'landing-update-ref-refused', `fast-forwarding ${target}`);
  return { target, from, to, via: 'update-ref', warnings };
}
