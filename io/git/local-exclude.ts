/**
 * Keeps kingshand's own files out of `git status` through the repository's local exclude file
 * (`<common git dir>/info/exclude`: untracked, never pushed, shared by every worktree).
 * Why: `git worktree remove` refuses a tree with untracked files (we never `--force`), so the
 * untracked `.claude/settings.local.json` we write into every worker would make every clean
 * worker unremovable; and the main checkout would list `.claude/worktrees/` as untracked.
 * A sandboxed worker may write the common git directory (its commits need it), so the file is
 * read and appended without following a link (issue 37): a link there is refused, never written through.
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import { RefusedError } from '../../contract/errors.ts';
import { readUntrustedFile, refusalLine } from '../fs/untrusted-file.ts';
import { dirname, join } from 'node:path';
import { gitOrRefuse, gitPrintedPath } from './run-git.ts';
import { farTarget } from './git-place.ts';
import { runRemote } from '../ssh/run-remote.ts';

export const KINGSHAND_EXCLUDES = ['/.claude/worktrees/', '/.claude/settings.local.json'] as const;

export async function ensureLocalExcludes(repo: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): Promise<string[]> {
  return addLocalExcludes(await localExcludeFile(repo), patterns);
}

/** Where the repository's local exclude file is (`<common git dir>/info/exclude`): one git call, read-only. */
export async function localExcludeFile(repo: string): Promise<string> {
  const common = (await gitOrRefuse(repo, ['rev-parse', '--git-common-dir'], 'git-common-dir', 'finding the git directory')).trim();
  return excludeFileIn(gitPrintedPath(repo, common));
}

/** The local exclude file of a repository whose common git directory (absolute) is known: no git call. */
export function excludeFileIn(commonDir: string): string {
  return join(commonDir, 'info', 'exclude');
}

/**
 * On a far host: $1 = the file; prints it (nothing when absent), so the same lines are decided
 * here, then appends stdin. A constant script: the patterns travel over stdin, never in argv.
 */
const FAR_READ = 'if [ -L "$1" ]; then exit 4; fi; cat -- "$1" 2>/dev/null || true';
const FAR_APPEND = 'mkdir -p -- "$(dirname -- "$1")" && if [ -L "$1" ]; then exit 4; fi && cat >> "$1"';

function refusedExclude(file: string, why: string): RefusedError {
  return new RefusedError('exclude-file-refused', `the repository's local exclude file ${file} was ${why}; nothing was added to it. Replace it with a plain file (or remove it), then try again.`, { file });
}

/** The local file's text ('' when absent); a link or a FIFO there is refused. */
async function readLocal(file: string): Promise<string> {
  const r = await readUntrustedFile(file, { maxBytes: 1 << 20 });
  if (r.kind === 'absent') return '';
  if (r.kind === 'refused') throw refusedExclude(file, refusalLine(r));
  return r.text;
}

/** Appends the patterns `file` lacks (no git call), where git runs (git-place.ts); returns those added. */
export async function addLocalExcludes(file: string, patterns: readonly string[] = KINGSHAND_EXCLUDES): Promise<string[]> {
  const far = farTarget();
  const present = far ? await runRemote(far, ['sh', '-c', FAR_READ, 'sh', file]).catch((err: unknown) => {
    throw (err as { exitCode?: number }).exitCode === 4 ? refusedExclude(file, 'refused: it is a symbolic link there') : err;
  }) : await readLocal(file);
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
  // O_NOFOLLOW: a link swapped in since the read is refused (ELOOP), not appended through.
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return missing;
}
