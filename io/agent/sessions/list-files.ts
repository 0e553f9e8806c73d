/**
 * Listing an agent's session files in a worker's config directory, which the worker's agent
 * writes: entries are taken as they are (lstat, never followed), a link or anything but a regular
 * file is left out, and the listing is bounded (a directory of a million files costs a bounded
 * read, never the daemon's memory).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The most entries of one directory looked at. */
const MAX_ENTRIES = 5000;

/** Names in `dir` that are real directories (a link to one is not), or none when it is not one. */
export async function subdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.slice(0, MAX_ENTRIES).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Regular files in `dir` whose names `accept` takes, with their modification times. */
export async function regularFiles(dir: string, accept: (name: string) => boolean): Promise<{ path: string; mtimeMs: number }[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: { path: string; mtimeMs: number }[] = [];
  for (const e of entries.slice(0, MAX_ENTRIES)) {
    if (!e.isFile() || !accept(e.name)) continue;
    const path = join(dir, e.name);
    try {
      out.push({ path, mtimeMs: (await lstat(path)).mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The newest `max` of `files`, newest first. */
export function newest(files: { path: string; mtimeMs: number }[], max: number): string[] {
  return [...files].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, max).map((f) => f.path);
}
