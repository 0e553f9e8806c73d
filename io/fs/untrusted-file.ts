/**
 * Reading a file a worker controls (issue 37 item 2): its report, anything under its out/
 * directory, a file a hook payload names. Such a file is input from a stranger, so it is opened
 * without following a link (O_NOFOLLOW: a link fails with ELOOP), without blocking (O_NONBLOCK: a
 * FIFO's open returns at once instead of waiting for a writer) and without becoming our terminal
 * (O_NOCTTY); the OPENED descriptor is then checked (fstat, so no swap after the check counts):
 * a regular file, owned by this process's user, with one name (a hard link is another file of the
 * person's under a second name), in a directory that is not itself a link. At most `maxBytes` are
 * read, and the answer says when the file was longer. The async reader is bounded in time too: a
 * file system that never answers costs one pool thread, never the event loop.
 *
 * Three-valued on purpose (DESIGN.md principle 3): `absent` (nothing there: no report), `refused`
 * with the reason in a person's words (never silently "no report"), or `read`.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The most read of a worker's report by default (a report is a page of Markdown, not a data dump). */
export const UNTRUSTED_READ_CAP = 256 * 1024;
/** How long the async reader waits for the file system before it refuses. */
export const UNTRUSTED_READ_MS = 5000;

export type RefusedKind = 'link' | 'not-regular' | 'foreign-owner' | 'hard-link' | 'directory-link' | 'unreadable' | 'timeout';

export type UntrustedRead =
  | { kind: 'absent' }
  | { kind: 'refused'; refused: RefusedKind; reason: string }
  | { kind: 'read'; text: string; size: number; truncated: boolean };

export type UntrustedProbe = Exclude<UntrustedRead, { kind: 'read' }> | { kind: 'present'; size: number };

export interface UntrustedReadOptions {
  /** Read at most this many bytes (default UNTRUSTED_READ_CAP). */
  maxBytes?: number;
  /** The async reader's bound (default UNTRUSTED_READ_MS). */
  timeoutMs?: number;
  /**
   * Refuse a file not owned by this process's user, and one with more than one name (default
   * true). Off only for files the person named (a read path), which may be anybody's.
   */
  ownedOnly?: boolean;
  /** The uid files must belong to (tests); default this process's. */
  uid?: number;
  /**
   * Read from this byte on (the async reader): a record the agent appends to is read again only
   * past what was read before. `size` in the answer is still the whole file's, `truncated` says
   * whether more than `maxBytes` lay past the offset.
   */
  offset?: number;
}

/** What a FIFO, a socket or a device is called in a refusal. */
function typeName(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a directory';
  return 'not a file';
}

const refused = (refusedKind: RefusedKind, reason: string): UntrustedRead & { kind: 'refused' } => ({ kind: 'refused', refused: refusedKind, reason });

/** The refusal for an open that failed, or absent. */
function fromOpenError(err: unknown, path: string): UntrustedProbe {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'absent' };
  if (code === 'ELOOP' || code === 'EMLINK') return refused('link', `${basename(path)} is a symbolic link, and the daemon never follows a link a worker made`);
  if (code === 'ENXIO') return refused('not-regular', `${basename(path)} is a socket, not a regular file`);
  if (code === 'ENOTDIR') return refused('directory-link', `a directory on the way to ${basename(path)} is not a directory`);
  return refused('unreadable', `${basename(path)} could not be opened (${code ?? String(err)})`);
}

/** Why an opened file is refused, or null. */
function refuseStat(st: Stats, path: string, o: UntrustedReadOptions): UntrustedProbe | null {
  if (!st.isFile()) return refused('not-regular', `${basename(path)} is ${typeName(st)}, not a regular file`);
  if (o.ownedOnly === false) return null;
  const uid = o.uid ?? process.getuid?.() ?? st.uid;
  if (st.uid !== uid) return refused('foreign-owner', `${basename(path)} belongs to user ${st.uid}, not to the daemon's user (${uid})`);
  if (st.nlink > 1) return refused('hard-link', `${basename(path)} has ${st.nlink} names (a hard link: another file under a second name)`);
  return null;
}

/** The directory holding `path` must be a directory, not a link to one (a swapped out/ would lead elsewhere). */
function judgeDirectory(path: string, st: Stats | Error): UntrustedProbe | null {
  if (st instanceof Error) return (st as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : fromOpenError(st, path);
  if (st.isSymbolicLink()) return refused('directory-link', `its directory ${dirname(path)} is a symbolic link, and the daemon never follows a link a worker made`);
  if (!st.isDirectory()) return refused('directory-link', `${dirname(path)} is not a directory`);
  return null;
}

function refuseDirectory(path: string): UntrustedProbe | null {
  let st: Stats | Error;
  try {
    st = lstatSync(dirname(path));
  } catch (err) {
    st = err as Error;
  }
  return judgeDirectory(path, st);
}

/** The same, off the event loop (the async reader's whole work is bounded in time). */
async function refuseDirectoryAsync(path: string): Promise<UntrustedProbe | null> {
  return judgeDirectory(path, await lstat(dirname(path)).catch((err: Error) => err));
}

function text(buf: Buffer, n: number, size: number, max: number, offset = 0): UntrustedRead {
  return { kind: 'read', text: buf.subarray(0, n).toString('utf8'), size, truncated: size - offset > max };
}

/**
 * The file's first `maxBytes`, or why not; never blocks on a FIFO, never follows a link.
 * Synchronous, so not bounded in time: for the daemon's own small files in its own directories
 * (the first-prompt mark, the delivery record, the hook queue); a file in a place the worker
 * writes goes through the async reader.
 */
export function readUntrustedFileSync(path: string, o: UntrustedReadOptions = {}): UntrustedRead {
  const max = o.maxBytes ?? UNTRUSTED_READ_CAP;
  const dir = refuseDirectory(path);
  if (dir) return dir as UntrustedRead;
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (err) {
    return fromOpenError(err, path) as UntrustedRead;
  }
  try {
    const st = fstatSync(fd);
    const why = refuseStat(st, path, o);
    if (why) return why as UntrustedRead;
    const buf = Buffer.alloc(Math.min(max, st.size));
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return text(buf, n, st.size, max);
  } catch (err) {
    return refused('unreadable', `${basename(path)} could not be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    closeSync(fd);
  }
}

/** Whether something readable is there, without reading it (open and fstat only). */
export async function probeUntrustedFile(path: string, o: UntrustedReadOptions = {}): Promise<UntrustedProbe> {
  const r = await readUntrustedFile(path, { ...o, maxBytes: 0 });
  return r.kind === 'read' ? { kind: 'present', size: r.size } : r;
}

/** The file's first `maxBytes`, or why not: never blocks on a FIFO, never follows a link, bounded in time. */
export function readUntrustedFile(path: string, o: UntrustedReadOptions = {}): Promise<UntrustedRead> {
  const max = o.maxBytes ?? UNTRUSTED_READ_CAP;
  const ms = o.timeoutMs ?? UNTRUSTED_READ_MS;
  const work = (async (): Promise<UntrustedRead> => {
    const dir = await refuseDirectoryAsync(path);
    if (dir) return dir as UntrustedRead;
    let fh;
    try {
      fh = await open(path, FLAGS);
    } catch (err) {
      return fromOpenError(err, path) as UntrustedRead;
    }
    try {
      const st = await fh.stat();
      const why = refuseStat(st, path, o);
      if (why) return why as UntrustedRead;
      const from = Math.min(Math.max(0, o.offset ?? 0), st.size);
      const buf = Buffer.alloc(Math.min(max, st.size - from));
      let n = 0;
      while (n < buf.length) {
        const { bytesRead } = await fh.read(buf, n, buf.length - n, from + n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return text(buf, n, st.size, max, from);
    } catch (err) {
      return refused('unreadable', `${basename(path)} could not be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    } finally {
      await fh.close().catch(() => undefined);
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<UntrustedRead>((resolve) => {
    timer = setTimeout(() => resolve(refused('timeout', `${basename(path)} could not be read within ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

/** A refused file as a person reads it: `refused: report.md is a symbolic link, …`. */
export function refusalLine(r: { reason: string }): string {
  return `refused: ${r.reason}`;
}

/**
 * A refused file as an error (for the ports whose failure the worker machine records as its
 * problem): its String() is the person-facing line.
 */
export class RefusedFileError extends Error {
  override name = 'refused';
  constructor(
    readonly path: string,
    readonly refused: RefusedKind,
    reason: string,
  ) {
    super(`${reason} (${path})`);
  }
}
