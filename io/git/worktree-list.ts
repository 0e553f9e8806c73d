/**
 * The worktrees git has registered for a repository (`git worktree list --porcelain`).
 */
import { gitOrRefuse } from './run-git.ts';
import { samePath } from './worker-names.ts';

export interface RegisteredWorktree {
  path: string;
  head: string | null;
  /** Short branch name, or null when detached. */
  branch: string | null;
  bare: boolean;
  locked: boolean;
  prunable: boolean;
}

export function parseWorktreeList(porcelain: string): RegisteredWorktree[] {
  const out: RegisteredWorktree[] = [];
  let cur: RegisteredWorktree | null = null;
  for (const line of porcelain.split('\n')) {
    if (line.startsWith('worktree ')) {
      cur = { path: line.slice('worktree '.length), head: null, branch: null, bare: false, locked: false, prunable: false };
      out.push(cur);
    } else if (cur) {
      if (line.startsWith('HEAD ')) cur.head = line.slice(5);
      else if (line.startsWith('branch ')) cur.branch = line.slice(7).replace(/^refs\/heads\//, '');
      else if (line === 'bare') cur.bare = true;
      else if (line === 'locked' || line.startsWith('locked ')) cur.locked = true;
      else if (line === 'prunable' || line.startsWith('prunable ')) cur.prunable = true;
    }
  }
  return out;
}

export async function listWorktrees(repo: string): Promise<RegisteredWorktree[]> {
  return parseWorktreeList(await gitOrRefuse(repo, ['worktree', 'list', '--porcelain'], 'git-worktree-list', 'listing worktrees'));
}

export async function findRegisteredWorktree(repo: string, path: string): Promise<RegisteredWorktree | null> {
  return (await listWorktrees(repo)).find((w) => samePath(w.path, path)) ?? null;
}

/** Forgets registrations whose directory is gone (a hand-deleted worktree would otherwise block `add`). */
export async function pruneWorktrees(repo: string): Promise<void> {
  await gitOrRefuse(repo, ['worktree', 'prune'], 'git-worktree-prune', 'pruning worktrees');
}
