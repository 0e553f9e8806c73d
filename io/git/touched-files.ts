/**
 * The files a worker's branch touches: what its commits changed since it left the base (the
 * merge base, as a landing would see it) and what is changed but not committed in its worktree.
 * Two live workers of one repository that touch the same file will meet at the second landing
 * (issue 40): the overlap is shown while both still run, when steering is cheap.
 *
 * The worktree is the worker's: the names are untrusted text (NUL-separated, so a name with a
 * newline is one name), capped in number, and git runs with the file-system monitor off so a
 * config the worker could reach never starts a program of its choosing.
 */
import { runGit } from './run-git.ts';

/** At most this many names per worker: an overlap is named by a few files, and a vendored tree must not cost a megabyte per call. */
export const TOUCHED_CAP = 2000;

export interface Touched {
  /** Repository-relative paths, sorted, at most TOUCHED_CAP. */
  files: string[];
  /** More names than the cap: the overlap may be larger than shown. */
  capped: boolean;
}

const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false'];

/** A name as every face may print it: control characters (a newline in a file name) shown escaped. */
function printable(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function names(out: string): string[] {
  return out.split('\0').filter((n) => n !== '').map(printable);
}

/** `git status --porcelain=v1 -z` entries: "XY name" (renames are off, so one name each). */
function statusNames(out: string): string[] {
  return out.split('\0').filter((e) => e.length > 3).map((e) => printable(e.slice(3)));
}

/**
 * The files `branch` in `worktree` touches against `base` (a branch name of its repository), or
 * null when git could not tell (a missing worktree, an unknown base): never "touches nothing".
 */
export async function touchedFiles(worktree: string, base: string): Promise<Touched | null> {
  const [committed, open] = await Promise.all([
    runGit(worktree, [...SAFE, 'diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', `refs/heads/${base}...HEAD`, '--']),
    runGit(worktree, [...SAFE, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']),
  ]);
  if (committed.exitCode !== 0 || open.exitCode !== 0) return null;
  const all = [...new Set([...names(committed.stdout), ...statusNames(open.stdout)])].sort();
  return { files: all.slice(0, TOUCHED_CAP), capped: all.length > TOUCHED_CAP };
}
