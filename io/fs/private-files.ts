/**
 * Every file kingshand writes is readable by its owner only (0600) and every directory it makes
 * is 0700: the state directory holds the fleet database, briefs, logs and a socket that types
 * into terminals. The process umask is left alone on purpose: the daemon's children (tmux, the
 * agents) inherit it, and files in a person's worktree must keep their usual modes.
 */
import { chmodSync, closeSync, copyFileSync, fchmodSync, mkdirSync, openSync, writeFileSync } from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `path` empty if missing, and makes it 0600 either way (another program, e.g. SQLite, then writes it). */
export function ensurePrivateFile(path: string): void {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Opens `path` for appending, 0600 (for a child's stdout and stderr). */
export function openPrivateAppend(path: string): number {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  fchmodSync(fd, PRIVATE_FILE_MODE);
  return fd;
}

/** writeFileSync, 0600 even when the file was there before. */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  writeFileSync(path, data, { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** A copy is ours, whatever the mode of its source. */
export function copyPrivateFile(source: string, dest: string): void {
  copyFileSync(source, dest);
  chmodSync(dest, PRIVATE_FILE_MODE);
}

/** mkdir -p with 0700 for every directory it makes; returns the first one made (undefined if none). */
export function makePrivateDir(path: string): string | undefined {
  return mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}
