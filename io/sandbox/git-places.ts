/**
 * The repository's git directories a worker's sandbox binds, found without running git: the
 * common directory from the registered repository (the person's checkout), and the worktree's own
 * metadata directory from the worktree's `.git` file — a file the worker can rewrite, so its word
 * is taken only when the metadata directory it names is one of this repository's and names this
 * worktree back. A claim that does not hold binds nothing (the worker's commits then fail; nothing
 * of another worker's or the person's becomes writable).
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export interface GitPlaces {
  commonDir: string | null;
  worktreeGitDir: string | null;
}

const MAX = 4096;

function readSmall(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile() || st.size > MAX) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** `gitdir: <path>` of a `.git` file, resolved against the file's directory. */
function gitdirOf(dotGit: string): string | null {
  const text = readSmall(dotGit);
  const m = text ? /^gitdir:\s*(.+?)\s*$/m.exec(text) : null;
  if (!m) return null;
  return isAbsolute(m[1]!) ? m[1]! : resolve(dirname(dotGit), m[1]!);
}

/** The common git directory of the checkout at `repo` (a `.git` directory, or a `.git` file's target and its commondir). */
export function commonDirOf(repo: string): string | null {
  const dotGit = join(repo, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return realOrNull(dotGit);
  } catch {
    return null;
  }
  const gitdir = gitdirOf(dotGit);
  if (!gitdir) return null;
  const common = readSmall(join(gitdir, 'commondir'));
  const dir = common ? resolve(gitdir, common.trim()) : gitdir;
  return realOrNull(dir);
}

export function gitPlacesOf(repo: string, worktree: string): GitPlaces {
  const commonDir = commonDirOf(repo);
  if (!commonDir) return { commonDir: null, worktreeGitDir: null };
  const claimed = gitdirOf(join(worktree, '.git'));
  const real = claimed ? realOrNull(claimed) : null;
  // One of this repository's worktree directories (`<common>/worktrees/<name>`), and it names this worktree back.
  if (!real || dirname(real) !== join(commonDir, 'worktrees') || basename(real).includes('/')) return { commonDir, worktreeGitDir: null };
  const back = readSmall(join(real, 'gitdir'));
  const backReal = back ? realOrNull(dirname(resolve(real, back.trim()))) : null;
  const worktreeReal = realOrNull(worktree);
  return { commonDir, worktreeGitDir: backReal !== null && backReal === worktreeReal ? real : null };
}
