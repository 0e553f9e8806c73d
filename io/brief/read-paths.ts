/**
 * Caller-supplied read-first files (`--read-path`): each must exist and be a regular file outside
 * /proc, /sys and /dev (issue 37: `/proc/self/environ` stats as a regular file and was copied), and
 * no two different files may share a leaf name, because each is copied to
 * `<brief dir>/read-first/<leaf>` and one would silently overwrite the other. Leaf names are
 * compared case-insensitively: on a case-insensitive filesystem `Spec.md` and `spec.md` are one file.
 */
import { existsSync, realpathSync, statSync, statfsSync } from 'node:fs';
import { readUntrustedFileSync, refusalLine } from '../fs/untrusted-file.ts';
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

/** Places whose files are the kernel's views of processes and devices, never a person's file (a /proc file stats as regular). */
export const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];
/** Their file systems by statfs magic, for a view mounted elsewhere: proc, sysfs, devpts, debugfs, securityfs, tracefs, cgroup, cgroup2, bpf, configfs, efivarfs. */
const PSEUDO_FS = new Set([0x9fa0, 0x62656572, 0x1cd1, 0x64626720, 0x73636673, 0x74726163, 0x27e0eb, 0x63677270, 0xcafe4a11, 0x62656570, 0xde5e81e4]);

const under = (path: string, root: string): boolean => path === root || path.startsWith(`${root}/`);

/** Why `abs` (or what it resolves to) is a kernel view rather than a file, or null. */
function pseudoPlace(abs: string, real: string | null): string | null {
  for (const p of [abs, real]) {
    const root = p === null ? undefined : PSEUDO_ROOTS.find((r) => under(p, r));
    if (root) return `it is under ${root}${p === abs ? '' : ` (it resolves to ${p})`}: the kernel's view of processes and devices, never a file to hand a worker`;
  }
  try {
    const type = statfsSync(abs).type;
    if (PSEUDO_FS.has(type)) return `it is on a kernel file system (statfs type 0x${type.toString(16)}), not a file to hand a worker`;
  } catch {
    // not there: the existence check below says so
  }
  return null;
}

/** `what` at `path` is an existing regular file outside /proc, /sys and /dev; its real path. Refuses without opening it (a FIFO is never waited on). */
export function checkReadPath(path: string, what = 'read path', flag = '--read-path'): string {
  const abs = resolve(path);
  let real: string | null = null;
  try {
    real = realpathSync(abs);
  } catch {
    real = null;
  }
  const pseudo = pseudoPlace(abs, real);
  if (pseudo) {
    throw new UsageError('read-path-denied', `${what} ${abs} (${flag}) is not handed to a worker: ${pseudo}. Nothing was created. Copy what the worker needs into a file of its own and pass that.`, { path: abs });
  }
  if (real === null || !existsSync(abs)) {
    throw new UsageError('missing-file', `${what} ${abs} does not exist; nothing was created. Pass ${flag} <file> with a path to an existing file.`, { path: abs });
  }
  if (!statSync(abs).isFile()) {
    throw new UsageError('not-a-file', `${what} ${abs} is a directory or not a regular file (a FIFO, a socket or a device is never read); nothing was created. Pass each file on its own ${flag}.`, { path: abs });
  }
  return real;
}

/** Why the file `p` (real path `source`) may not be handed to a worker, or null: by place, by identity, by shape. */
function deniedWhy(p: string, source: string, deny: DenyContext): string | null {
  // Path first (cheap), then what the file is: the same inode as a denied file, or a credential's shape.
  return deniedReadPath(p, deny) ?? deniedReadPath(source, deny) ?? deniedByIdentity(source, deny) ?? deniedByShape(source);
}

/** Validates every path before any is copied; the same file passed twice is staged once. */
export function validateReadPaths(paths: readonly string[], deny: DenyContext = {}): StagedFile[] {
  const byLeaf = new Map<string, StagedFile>();
  for (const p of paths) {
    const source = checkReadPath(p);
    const why = deniedWhy(p, source, deny);
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

/** The largest note file `hand relaunch --note` reads (a note is a few paragraphs for the next session). */
export const MAX_NOTE_BYTES = 256 * 1024;

/**
 * `hand relaunch --note <file>`: the same checks as a read path (the note's text goes into the
 * worker's progress note and prompt, as a read path's copy goes into its read-first/), then the
 * file read without following a link or blocking, capped. Its text, or a refusal naming --note.
 */
export function readNoteFile(path: string, deny: DenyContext = {}): string {
  const source = checkReadPath(path, 'note file', '--note');
  const why = deniedWhy(path, source, deny);
  if (why) {
    throw new UsageError('read-path-denied', `note file ${resolve(path)} (--note) is not handed to a worker: ${why}. Nothing was done. Write what the next session should know (never a secret) into a file of its own and pass that.`, { path: resolve(path) });
  }
  const r = readUntrustedFileSync(source, { ownedOnly: false, maxBytes: MAX_NOTE_BYTES });
  if (r.kind === 'absent') throw new UsageError('missing-file', `note file ${resolve(path)} (--note) is gone; nothing was done.`, { path: resolve(path) });
  if (r.kind === 'refused') throw new UsageError('not-a-file', `note file ${resolve(path)} (--note) was ${refusalLine(r)}; nothing was done.`, { path: resolve(path) });
  if (r.truncated) throw new UsageError('note-too-large', `note file ${resolve(path)} (--note) is ${r.size} bytes, over the maximum of ${MAX_NOTE_BYTES}; nothing was done. Keep the note short and put large material in the worktree.`, { path: resolve(path), size: r.size, maxBytes: MAX_NOTE_BYTES });
  return r.text;
}
