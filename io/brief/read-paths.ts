/**
 * Caller-supplied read-first files (`--read-path`): each must exist and be a regular file, and
 * no two different files may share a leaf name, because each is copied to
 * `<brief dir>/read-first/<leaf>` and one would silently overwrite the other. Leaf names are
 * compared case-insensitively: on a case-insensitive filesystem `Spec.md` and `spec.md` are one file.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import { deniedReadPath, type DenyContext } from './read-path-deny.ts';
import { deniedByIdentity, deniedByShape } from './read-path-identity.ts';

export interface StagedFile {
  /** Real path of the original. */
  source: string;
  /** The copy's file name under read-first/. */
  leaf: string;
}

export function leafKey(leaf: string): string {
  return leaf.toLowerCase();
}

export function checkReadPath(path: string, what = 'read path', flag = '--read-path'): string {
  const abs = resolve(path);
  if (!existsSync(abs)) {
    throw new UsageError('missing-file', `${what} ${abs} does not exist; nothing was created. Pass ${flag} <file> with a path to an existing file.`, { path: abs });
  }
  if (!statSync(abs).isFile()) {
    throw new UsageError('not-a-file', `${what} ${abs} is a directory or not a regular file; nothing was created. Pass each file on its own ${flag}.`, { path: abs });
  }
  return realpathSync(abs);
}

/** Validates every path before any is copied; the same file passed twice is staged once. */
export function validateReadPaths(paths: readonly string[], deny: DenyContext = {}): StagedFile[] {
  const byLeaf = new Map<string, StagedFile>();
  for (const p of paths) {
    const source = checkReadPath(p);
    // Path first (cheap), then what the file is: the same inode as a denied file, or a credential's shape.
    const why = deniedReadPath(p, deny) ?? deniedReadPath(source, deny) ?? deniedByIdentity(source, deny) ?? deniedByShape(source);
    if (why) {
      throw new UsageError('read-path-denied', `read path ${resolve(p)} is not handed to a worker: ${why}. Nothing was created. Copy what the worker needs (never a secret) into a file of its own and pass that.`, { path: resolve(p) });
    }
    const leaf = basename(source);
    const clash = byLeaf.get(leafKey(leaf));
    if (clash && clash.source === source) continue;
    if (clash) {
      throw new UsageError(
        'read-path-clash',
        `read paths ${clash.source} and ${source} share the file name ${leaf} (compared ignoring case); both would be copied to read-first/${leaf}. Nothing was created. Copy one under another name and pass that instead.`,
        { leaf, sources: [clash.source, source] },
      );
    }
    byLeaf.set(leafKey(leaf), { source, leaf });
  }
  return [...byLeaf.values()];
}
