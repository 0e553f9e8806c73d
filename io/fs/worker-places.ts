/**
 * Places inside a worker's own tree (its worktree, its agent directory) where the daemon writes
 * or reads a file of its own making — the worktree's agent settings, a trust file. The worker
 * could have left a link there (to the person's settings in another repository, to their home):
 * what is not what the daemon expects is removed — the link itself, never what it points to —
 * so the daemon's write never goes through it and its read never reads the person's file.
 */
import { lstatSync, mkdirSync, rmSync } from 'node:fs';

/** `path` is a real directory after this (a link or a file there is removed first). */
export function claimDirectory(path: string): void {
  try {
    if (!lstatSync(path).isDirectory()) rmSync(path, { force: true });
  } catch {
    // absent
  }
  mkdirSync(path, { recursive: true });
}

/** `path` is a regular file or absent after this (a link, a FIFO or a directory there is removed). */
export function claimRegularFile(path: string): void {
  try {
    if (!lstatSync(path).isFile()) rmSync(path, { recursive: true, force: true });
  } catch {
    // absent
  }
}

/** Whether anything (a file, a link — dangling or not —, a FIFO) is at `path`, without following it. */
export function somethingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
