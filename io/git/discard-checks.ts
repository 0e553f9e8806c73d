/**
 * The facts `hand discard` needs before it touches anything: which files in a worktree are not
 * committed (git would refuse to remove it, and they would be lost), and which commits of a
 * branch are on no other branch or remote-tracking ref (deleting the branch would lose them).
 * A failed probe is "could not tell" and refuses, never "clean".
 */
import { existsSync } from 'node:fs';
import { RefusedError } from '../../contract/errors.ts';
import { runGit } from './run-git.ts';

/** Paths `git status --porcelain` names in the worktree ([] when it does not exist). */
export async function uncommittedFiles(worktree: string): Promise<string[]> {
  if (!existsSync(worktree)) return [];
  const r = await runGit(worktree, ['status', '--porcelain=v1', '--untracked-files=all']);
  if (r.exitCode !== 0) {
    throw new RefusedError('worktree-unreadable', `could not tell whether ${worktree} holds uncommitted work (git status: ${(r.stderr || r.spawnError || '').trim()}); nothing was changed.`, { worktree });
  }
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3));
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  const r = await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  return r.exitCode === 0;
}

/** Commits on `branch` reachable from no other local branch and no remote-tracking ref (oneline). */
export async function unmergedCommits(repo: string, branch: string): Promise<string[]> {
  // --exclude before --branches takes the name without refs/heads/ (git rev-list docs).
  const r = await runGit(repo, ['log', '--oneline', `refs/heads/${branch}`, '--not', `--exclude=${branch}`, '--branches', '--remotes']);
  if (r.exitCode !== 0) {
    throw new RefusedError('branch-unreadable', `could not tell which commits of ${branch} are merged elsewhere (git log: ${(r.stderr || r.spawnError || '').trim()}); nothing was changed.`, { branch });
  }
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

/** `git branch -D`: only called after unmergedCommits was checked (or the person confirmed). */
export async function deleteBranch(repo: string, branch: string): Promise<void> {
  const r = await runGit(repo, ['branch', '-D', '--end-of-options', branch]);
  if (r.exitCode !== 0) throw new RefusedError('branch-delete-failed', `git could not delete ${branch}: ${(r.stderr || r.spawnError || '').trim()}`, { branch });
}
