/**
 * The second landing in a repository (issue 40): with two workers cut from one base, the first
 * lands and the base moves on; the second cannot fast-forward, and was refused with "rebase the
 * worker's branch yourself" — a dead end every parallel fleet hit. This says, before anything is
 * landed, how the branch applies to the base as it is now — fast-forward, cleanly after a rebase
 * (`git merge-tree` answers without touching a worktree), or with conflicts in named files — and
 * rebases a clean one in its worktree on the person's word: never a merge commit, never a force
 * of the base, the rebase aborted (the branch as it was) if git stops on anything.
 */
import { RefusedError } from '../../contract/errors.ts';
import { runGit } from './run-git.ts';

export type HowItApplies =
  | { kind: 'fast-forward' }
  | { kind: 'clean'; behind: number }
  | { kind: 'conflicts'; behind: number; files: string[] }
  | { kind: 'unknown'; why: string };

/** Commits `target` has that `branch` lacks. */
async function behindBy(repo: string, branch: string, target: string): Promise<number> {
  const r = await runGit(repo, ['rev-list', '--count', `refs/heads/${branch}..refs/heads/${target}`]);
  return r.exitCode === 0 ? Number(r.stdout.trim()) || 0 : 0;
}

export async function howItApplies(repo: string, branch: string, target: string): Promise<HowItApplies> {
  const anc = await runGit(repo, ['merge-base', '--is-ancestor', `refs/heads/${target}`, `refs/heads/${branch}`]);
  if (anc.exitCode === 0) return { kind: 'fast-forward' };
  if (anc.exitCode !== 1) return { kind: 'unknown', why: anc.stderr.trim() || `git merge-base exited ${anc.exitCode}` };
  const behind = await behindBy(repo, branch, target);
  // --write-tree: git 2.38 and later; it writes objects only, never a ref or a worktree.
  const mt = await runGit(repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', `refs/heads/${target}`, `refs/heads/${branch}`]);
  if (mt.exitCode === 0) return { kind: 'clean', behind };
  if (mt.exitCode === 1) {
    const files = mt.stdout.split('\n').slice(1).map((l) => l.trim()).filter(Boolean);
    return { kind: 'conflicts', behind, files: [...new Set(files)] };
  }
  return { kind: 'unknown', why: (mt.stderr.trim() || `git merge-tree exited ${mt.exitCode}`).split('\n')[0]! };
}

/**
 * Rebases the worker's branch onto `target` in its worktree. Refused when the worktree holds
 * uncommitted changes; a rebase git stops (a conflict merge-tree did not foresee, a hook) is
 * aborted, so the branch is as it was, and refused with git's words.
 */
export async function rebaseOnto(worktree: string, branch: string, target: string): Promise<{ from: string; to: string }> {
  const st = await runGit(worktree, ['status', '--porcelain']);
  if (st.exitCode !== 0) throw new RefusedError('rebase-refused', `could not read the worktree ${worktree} before the rebase: ${st.stderr.trim()}; nothing was changed.`, { worktree });
  if (st.stdout.trim() !== '') {
    throw new RefusedError('rebase-refused', `the worktree ${worktree} has uncommitted changes (${st.stdout.trim().split('\n').slice(0, 5).join(', ')}); a rebase would carry or lose them, so nothing was changed. Have the worker commit or discard them first.`, { worktree });
  }
  const from = (await runGit(worktree, ['rev-parse', `refs/heads/${branch}`])).stdout.trim();
  const r = await runGit(worktree, ['-c', 'rebase.autoStash=false', '-c', 'core.editor=true', 'rebase', '--no-autosquash', `refs/heads/${target}`]);
  if (r.exitCode !== 0) {
    await runGit(worktree, ['rebase', '--abort']);
    throw new RefusedError('rebase-stopped', `git stopped the rebase of ${branch} onto ${target} (${(r.stderr || r.stdout).trim().split('\n').slice(0, 3).join(' ')}); it was aborted and ${branch} is as it was. Ask the worker to rebase and resolve it.`, { branch, target });
  }
  const to = (await runGit(worktree, ['rev-parse', `refs/heads/${branch}`])).stdout.trim();
  return { from, to };
}
