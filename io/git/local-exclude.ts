/**
 * Keeps kingshand's own files out of `git status` through the repository's local exclude file
 * (`<common git dir>/info/exclude`: untracked, never pushed, shared by every worktree).
 * Why: `git worktree remove` refuses a tree with untracked files (we never `--force`), so the
 * untracked `.claude/settings.local.json` we write into every worker would make every clean
 * worker unremovable; and the main checkout would list `.claude/worktrees/` as untracked.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { gitOrRefuse } from './run-git.ts';

export const KINGSHAND_EXCLUDES = ['/.claude/worktrees/', '/.claude/settings.local.json'] as const;

export async function ensureLocalExcludes(repo: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): Promise<string[]> {
  return addLocalExcludes(await localExcludeFile(repo), patterns);
}

/** Where the repository's local exclude file is (`<common git dir>/info/exclude`): one git call, read-only. */
export async function localExcludeFile(repo: string): Promise<string> {
  const common = (await gitOrRefuse(repo, ['rev-parse', '--git-common-dir'], 'git-common-dir', 'finding the git directory')).trim();
  return join(isAbsolute(common) ? common : join(repo, common), 'info', 'exclude');
}

/** Appends the patterns `file` lacks (no git call); returns those added. */
export function addLocalExcludes(file: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): string[] {
  const present = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const have = new Set(present.split(/\r?\n/).map((l) => l.trim()));
  const missing = patterns.filter((p) => !have.has(p));
  if (missing.length === 0) return [];
  mkdirSync(dirname(file), { recursive: true });
  const lead = present === '' || present.endsWith('\n') ? '' : '\n';
  appendFileSync(file, `${lead}# kingshand: worker worktrees and their agent settings\n${missing.join('\n')}\n`);
  return missing;
}
