/**
 * Where a worker lives in git: branch `worktree-<id>` checked out at `<repo>/.claude/worktrees/<id>`.
 * The id is used raw (never normalised: `T-1001` stays `T-1001`), so it must already be safe as
 * both a path segment and a branch name component.
 */
import { isPrototypeName, prototypeNameWhy } from '../../contract/plain-name.ts';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../contract/errors.ts';

export const WORKTREES_DIR = join('.claude', 'worktrees');

export function validateWorkerId(id: string): void {
  if (isPrototypeName(id)) throw new UsageError('invalid-worker-id', `${prototypeNameWhy('worker id', id)}.`, { id });
  const ok =
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && id.length <= 100 && !id.includes('..') && !id.endsWith('.') && !id.endsWith('.lock');
  if (!ok) {
    throw new UsageError(
      'invalid-worker-id',
      `worker id ${JSON.stringify(id)} cannot name a branch and a directory; use letters, digits, '.', '_' and '-' ` +
        `(starting with a letter or digit, no '..', not ending in '.' or '.lock'), e.g. T-1001 or fix-login.`,
      { id },
    );
  }
}

export function workerBranch(id: string): string {
  return `worktree-${id}`;
}

export function workerWorktreePath(repoTop: string, id: string): string {
  return join(repoTop, WORKTREES_DIR, id);
}

/** A path as git and the filesystem would agree on it: real path when it exists, case-folded on Windows. */
export function canonicalPath(p: string): string {
  let abs = resolve(p);
  if (existsSync(abs)) abs = realpathSync(abs);
  abs = abs.replace(/\\/g, '/').replace(/(.)\/+$/, '$1');
  return process.platform === 'win32' ? abs.toLowerCase() : abs;
}

export function samePath(a: string, b: string): boolean {
  return canonicalPath(a) === canonicalPath(b);
}
