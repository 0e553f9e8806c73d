/**
 * Where io/git's commands run: here, or on another machine through that host's one multiplexed
 * ssh connection (issue 28). A worker on a far host has its repository, worktree and branch
 * there, and every git call about it must run there — the same worktree creation, landing
 * evidence and fast-forward as locally, not a second copy of them written for ssh.
 *
 * The place is carried by AsyncLocalStorage rather than threaded through every io/git function:
 * their call chains are deep (createWorktree → findRegisteredWorktree → listWorktrees → runGit)
 * and the choice is one per worker, made once at the top (`onHost`). The few file-system
 * questions io/git asks (is this path there?) go through `pathThere`, which asks the same place.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, lstatSync } from 'node:fs';
import { runRemote, RemoteCommandError } from '../ssh/run-remote.ts';
import type { SshTarget } from '../ssh/ssh-command.ts';

const place = new AsyncLocalStorage<SshTarget>();

/** Runs `fn` with every io/git command in it on `target` (null: here). */
export function onHost<T>(target: SshTarget | null, fn: () => Promise<T>): Promise<T> {
  return target ? place.run(target, fn) : fn();
}

/** The far host io/git runs on now, or null for this machine. */
export function farTarget(): SshTarget | null {
  return place.getStore() ?? null;
}

/** Constant script: exit 0 when $1 is there (a dangling symlink counts: it is not ours either). */
const THERE = 'test -e "$1" || test -L "$1"';

/**
 * Whether `path` exists where git runs. On a far host a failed ssh is thrown (could not tell),
 * never read as "not there": a worktree must not be called missing because a connection dropped.
 */
export async function pathThere(path: string): Promise<boolean> {
  const target = farTarget();
  if (!target) {
    try {
      lstatSync(path); // a dangling symlink is still something we did not make
      return true;
    } catch {
      return existsSync(path);
    }
  }
  try {
    await runRemote(target, ['sh', '-c', THERE, 'sh', path]);
    return true;
  } catch (err) {
    if (err instanceof RemoteCommandError && !err.unreachable && err.exitCode === 1) return false;
    throw err;
  }
}
