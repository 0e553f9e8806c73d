/**
 * Writing the daemon's own files for a worker (brief.md, read-first/ copies, progress-note.md,
 * the first-prompt mark, the gate's delivery record) so that a worker cannot make the daemon
 * write through a link it planted (issue 37 item 2): `writeFile(path)` follows a link at `path`,
 * and `hand relaunch` overwrote a file of the person's that progress-note.md was linked to.
 *
 * Atomic create instead: a fresh, unguessable name in the same directory is opened with
 * O_CREAT|O_EXCL|O_NOFOLLOW (a link or anything else already at that name fails the open),
 * written, made `mode`, optionally flushed, then renamed over the target — rename replaces a link
 * at the target, it never writes through it. The directory itself must be a real directory, not
 * a link to one. A reader sees the old file or the new one, never half.
 */
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.ts';

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY;
const READ_SOURCE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

export interface AtomicCreateOptions {
  /** The file's mode (default 0600). */
  mode?: number;
  /** fsync the data before the rename and the directory after it (a mark that must survive a crash). */
  durable?: boolean;
}

/** Refuses a directory that is a link (or not a directory): the file would land wherever it points. */
export function assertRealDirectory(dir: string): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw Object.assign(new Error(`${dir} is a symbolic link; the daemon writes its files only into a directory of its own, never through a link`), { code: 'ELOOP' });
  if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
}

/** Opens the fresh temp file beside `target`; its path and descriptor. */
function openTemp(target: string, mode: number): { temp: string; fd: number } {
  const dir = dirname(target);
  assertRealDirectory(dir);
  const temp = join(dir, `.${basename(target)}.${randomBytes(9).toString('hex')}.tmp`);
  return { temp, fd: openSync(temp, CREATE, mode) };
}

function finish(target: string, temp: string, fd: number, o: AtomicCreateOptions, write: (fd: number) => void): void {
  try {
    try {
      write(fd);
      // Whatever the umask made of the open's mode: the file is ours alone (or what was asked).
      fchmodSync(fd, o.mode ?? PRIVATE_FILE_MODE);
      if (o.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  if (o.durable) {
    const dir = openSync(dirname(target), constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}

/** `data` at `target`, created atomically; a link at `target` is replaced, never followed. */
export function createFileAtomically(target: string, data: string | Uint8Array, o: AtomicCreateOptions = {}): void {
  const { temp, fd } = openTemp(target, o.mode ?? PRIVATE_FILE_MODE);
  finish(target, temp, fd, o, (f) => {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(f, buf, off, buf.length - off);
  });
}

/**
 * A copy of `source` (a file the person named, already checked) at `target`, created atomically.
 * The source is opened without following a link and without blocking, and must still be the
 * regular file that was checked (`expect`: its device and inode), so a swap after the check
 * (a FIFO, another file) is refused instead of copied.
 */
export function copyFileAtomically(source: string, target: string, o: AtomicCreateOptions & { expect?: { dev: number; ino: number } } = {}): void {
  const src = openSync(source, READ_SOURCE);
  try {
    const st = fstatSync(src);
    if (!st.isFile()) throw Object.assign(new Error(`${source} is no longer a regular file; nothing was copied`), { code: 'EINVAL' });
    if (o.expect && (st.dev !== o.expect.dev || st.ino !== o.expect.ino)) throw Object.assign(new Error(`${source} changed between its check and its copy; nothing was copied`), { code: 'EINVAL' });
    const { temp, fd } = openTemp(target, o.mode ?? PRIVATE_FILE_MODE);
    finish(target, temp, fd, o, (f) => {
      const buf = Buffer.alloc(64 * 1024);
      for (;;) {
        const n = readSync(src, buf, 0, buf.length, null);
        if (n === 0) break;
        let off = 0;
        while (off < n) off += writeSync(f, buf, off, n - off);
      }
    });
  } finally {
    closeSync(src);
  }
}
