/** The repository's common git directory (shared by its worktrees), absolute; null when git cannot say. */
import { gitPrintedPath, runGit } from './run-git.ts';

export async function gitCommonDir(repo: string): Promise<string | null> {
  const r = await runGit(repo, ['rev-parse', '--git-common-dir']);
  if (r.exitCode !== 0) return null;
  return gitPrintedPath(repo, r.stdout.trim());
}
