/**
 * Is this path a git work tree, and where is its top level? Three-valued where the read can
 * fail: a git that could not run, or a path we may not enter, is "unknown", never "no".
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { gitPrintedPath, runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';

export type WorkTreeAnswer = 'yes' | 'no' | 'unknown';

export async function isGitWorkTree(path: string): Promise<WorkTreeAnswer> {
  if (!existsSync(path)) return 'no';
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return 'unknown';
  }
  if (!isDir) return 'no';
  const r = await runGit(path, ['rev-parse', '--is-inside-work-tree']);
  if (r.exitCode === 0) return r.stdout.trim() === 'true' ? 'yes' : 'no';
  // git answers 128 both for "not a repository" and for trouble reading one; only the former is a no.
  if (r.exitCode === 128 && /not a git repository/i.test(r.stderr)) return 'no';
  return 'unknown';
}

/**
 * What one dispatch asks git of its repository once and hands on (daemon/fleet/dispatch.ts):
 * never kept beyond it, because a repository can move or go between two dispatches.
 */
export interface RepoFacts {
  /** Real path of the top-level work tree. */
  top: string;
  /** The common git directory (shared by its worktrees), absolute; null when git did not say (a far host is not asked). */
  commonDir: string | null;
}

/**
 * Real path of the top-level work tree containing `path`; refuses when there is none. One git
 * process answers both questions (`--is-inside-work-tree` prints `false` and stops with 128
 * inside a `.git` directory or a bare repository); dispatch, annex and landing each ask this.
 */
export async function repoTopLevel(path: string): Promise<string> {
  return (await repoFacts(path)).top;
}

/**
 * The top level (as repoTopLevel, with its refusals) and the common git directory, from the same
 * git process: `--git-common-dir` is answered after the top level, relative to `path` when git
 * prints it relative. On a far host only the top level is asked, as before.
 */
export async function repoFacts(path: string): Promise<RepoFacts> {
  if (farTarget()) return { top: await farTopLevel(path), commonDir: null };
  if (!existsSync(path)) {
    throw new UsageError('repo-not-found', `repository path ${path} does not exist; pass the path of a git checkout.`, { path });
  }
  let isDir: boolean | null;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    isDir = null;
  }
  const r = isDir === false ? null : await runGit(path, ['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--git-common-dir']);
  const [inside, top, common] = r ? r.stdout.split('\n') : [];
  if (r && r.exitCode === 0 && inside === 'true' && top) {
    return { top: realpathSync(top), commonDir: common ? gitPrintedPath(path, common) : null };
  }
  if (isDir === false || (r && (inside === 'false' || (r.exitCode === 128 && /not a git repository/i.test(r.stderr))))) {
    throw new UsageError(
      'not-a-git-work-tree',
      `${path} is not inside a git work tree; pass the path of a git checkout (or run 'git init' there first).`,
      { path },
    );
  }
  const said = ((r?.stderr || r?.spawnError) ?? '').trim();
  throw new RefusedError('git-unavailable', `could not ask git about ${path}: ${said || `exit ${r?.exitCode}`}; check that git is installed and the path is readable.`, { path });
}

/**
 * The same question on a far host (git-place.ts): git alone answers it there, and its path is
 * already the real one. Only git's own "not a repository" or a missing directory is a no.
 */
async function farTopLevel(path: string): Promise<string> {
  const r = await runGit(path, ['rev-parse', '--show-toplevel']);
  if (r.exitCode === 0 && r.stdout.trim()) return r.stdout.trim();
  if (r.exitCode === 128 && /not a git repository|cannot change to/i.test(r.stderr)) {
    throw new UsageError('not-a-git-work-tree', `${path} is not a git work tree on the far host; give the path of a git checkout there (git clone it there first).`, { path });
  }
  const said = (r.stderr || r.spawnError || '').trim();
  throw new RefusedError('git-unavailable', `could not ask git about ${path} on the far host: ${said || `exit ${r.exitCode}`}; run hand host check.`, { path });
}
