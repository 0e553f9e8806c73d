/**
 * A worker's file kept open for reading what its agent appends (a session record, read for its
 * cost every turn): opened once as io/fs/untrusted-file.ts opens a stranger's file (no link
 * followed, no FIFO waited on, a regular file of ours with one name, in a directory that is no
 * link), then read at an offset through that handle. Before each read, one lstat of the path must
 * find the very file that was opened (device and inode), still regular, ours, with one name: a
 * file swapped, linked or replaced under the name is let go and opened again through the checks.
 *
 * Why a handle: opening the file again each time (lstat of its directory, open, fstat, read,
 * close) cost 146 µs of CPU a read; the handle's read costs 20 (bench/cost-read.ts). Why the
 * lstat is synchronous: the record lies in the worker's config directory under the state
 * directory, on the file system the daemon's SQLite already reads synchronously (an async lstat
 * cost 57 µs, a sync one a few).
 */
import { lstatSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { readUntrustedFile, type UntrustedRead, UNTRUSTED_READ_MS } from './untrusted-file.ts';
import { constants } from 'node:fs';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

export interface KeptFile {
  fh: FileHandle;
  dev: number;
  ino: number;
}

/** The path's own entry now (never followed), or null when nothing is there or it cannot be asked. */
export function entryOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Whether `st` (the path's entry now) is still the kept file, regular, ours, with one name. */
export function stillKept(st: Stats | null, kept: KeptFile | null, uid = process.getuid?.() ?? -1): boolean {
  return kept !== null && st !== null && st.isFile() && st.dev === kept.dev && st.ino === kept.ino && st.nlink === 1 && (uid < 0 || st.uid === uid);
}

/**
 * Opens the file for keeping, after the untrusted reader's checks said yes (absent and refused
 * answered as it answers them). Bounded in time; a handle that opens after the bound is closed.
 */
export async function keepUntrustedFile(path: string, timeoutMs = UNTRUSTED_READ_MS): Promise<{ kind: 'kept'; kept: KeptFile } | Exclude<UntrustedRead, { kind: 'read' }>> {
  const probe = await readUntrustedFile(path, { maxBytes: 0, timeoutMs });
  if (probe.kind !== 'read') return probe;
  let fh: FileHandle;
  try {
    fh = await open(path, FLAGS);
  } catch {
    return { kind: 'refused', refused: 'unreadable', reason: `${basename(path)} could not be opened again` };
  }
  const st = await fh.stat().catch(() => null);
  // The checked file must be the one opened: a swap between the probe and the open is refused.
  if (!st || !stillKept(entryOf(path), { fh, dev: st.dev, ino: st.ino })) {
    await fh.close().catch(() => undefined);
    return { kind: 'refused', refused: 'unreadable', reason: `${basename(path)} changed while it was opened` };
  }
  return { kind: 'kept', kept: { fh, dev: st.dev, ino: st.ino } };
}

/** Up to `max` bytes from `offset` through the kept handle, bounded in time (null: it did not answer). */
export async function readKept(kept: KeptFile, offset: number, max: number, timeoutMs = UNTRUSTED_READ_MS): Promise<Buffer | null> {
  const buf = Buffer.alloc(max);
  const work = (async () => {
    let n = 0;
    while (n < max) {
      const { bytesRead } = await kept.fh.read(buf, n, max - n, offset + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return buf.subarray(0, n);
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
    timer.unref?.();
  });
  return Promise.race([work, bound]).catch(() => null).finally(() => clearTimeout(timer));
}
