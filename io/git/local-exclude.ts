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
import { farTarget } from './git-place.ts';
import { runRemote } from '../ssh/run-remote.ts';

export const KINGSHAND_EXCLUDES = ['/.claude/worktrees/', '/.claude/settings.local.json'] as const;

export async function ensureLocalExcludes(repo: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): Promise<string[]> {
  return addLocalExcludes(await localExcludeFile(repo), patterns);
}

/** Where the repository's local exclude file is (`<common git dir>/info/exclude`): one git call, read-only. */
export async function localExcludeFile(repo: string): Promise<string> {
  const common = (await gitOrRefuse(repo, ['rev-parse', '--git-common-dir'], 'git-common-dir', 'finding the git directory')).trim();
  return join(isAbsolute(common) ? common : join(repo, common), 'info', 'exclude');
}

/**
 * On a far host: $1 = the file; prints it (nothing when absent), so the same lines are decided
 * here, then appends stdin. A constant script: the patterns travel over stdin, never in argv.
 */
const FAR_READ = 'cat -- "$1" 2>/dev/null || true';
const FAR_APPEND = 'mkdir -p -- "$(dirname -- "$1")" && cat >> "$1"';

/** Appends the patterns `file` lacks (no git call), where git runs (git-place.ts); returns those added. */
export async function addLocalExcludes(file: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): Promise<string[]> {
  const far = farTarget();
  const present = far ? await runRemote(far, ['sh', '-c', FAR_READ, 'sh', file]) : existsSync(file) ? readFileSync(file, 'utf8') : '';
  const have = new Set(present.split(/\r?\n/).map((l) => l.trim()));
  const missing = patterns.filter((p) => !have.has(p));
  if (missing.length === 0) return [];
  const lead = present === '' || present.endsWith('\n') ? '' : '\n';
  const text = `${lead}# kingshand: worker worktrees and their agent settings\n${missing.join('\n')}\n`;
  if (far) {
    await runRemote(far, ['sh', '-c', FAR_APPEND, 'sh', file], text);
    return missing;
  }
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, text);
  return missing;
}
