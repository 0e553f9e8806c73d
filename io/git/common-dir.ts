/** The repository's common git directory (shared by its worktrees), absolute; null when git cannot say. */
import { isAbsolute, join } from 'node:path';
import { runGit } from './run-git.ts';

export async function gitCommonDir(repo: string): Promise<string | null> {
  const r = await runGit(repo, ['rev-parse', '--git-common-dir']);
  if (r.exitCode !== 0) return null;
  const raw = r.stdout.trim();
  return isAbsolute(raw) ? raw : join(repo, raw);
}
