/**
 * A project's standing files (workflow §2.6): `done-<project>.md` (standing definition of done)
 * and `rules-<project>.md` (standing rules), kept in the data directory. Dispatch attaches each
 * one that exists to every brief as a read-first copy, so no brief can forget them.
 * Unreadable is not absent: a directory at that path, or a file that cannot be opened, refuses.
 */
import { closeSync, constants, existsSync, openSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import { leafKey, type StagedFile } from './read-paths.ts';

export type StandingKind = 'done' | 'rules';

export interface StandingFile extends StagedFile {
  kind: StandingKind;
  project: string;
}

/** Project names become file names; anything else resolves to no standing file at all. */
export const FILE_SAFE_PROJECT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function standingFilePath(dataDir: string, project: string, kind: StandingKind): string | null {
  if (!FILE_SAFE_PROJECT.test(project) || project.includes('..')) return null;
  return join(dataDir, `${kind}-${project}.md`);
}

function openable(path: string): boolean {
  try {
    closeSync(openSync(path, constants.O_RDONLY));
    return true;
  } catch {
    return false;
  }
}

/**
 * The standing files to attach, given the caller's files (already validated). A standing file the
 * caller passed by hand is not attached twice; one whose leaf collides with a different caller
 * file refuses, since both would land on the same copy.
 */
export function resolveStandingFiles(dataDir: string, project: string, callerFiles: readonly StagedFile[]): StandingFile[] {
  const out: StandingFile[] = [];
  for (const kind of ['done', 'rules'] as const) {
    const path = standingFilePath(dataDir, project, kind);
    if (path === null || !existsSync(path)) continue;
    if (!statSync(path).isFile()) {
      throw new RefusedError('standing-file-not-a-file', `standing ${kind} file ${path} is a directory, not a file; nothing was created. Replace it with a Markdown file or remove it.`, { path });
    }
    if (!openable(path)) {
      throw new RefusedError('standing-file-unreadable', `standing ${kind} file ${path} exists but cannot be read; nothing was created. Fix its permissions (an unreadable file is not an absent one).`, { path });
    }
    const source = realpathSync(path);
    const leaf = `${kind}-${project}.md`;
    const clash = callerFiles.find((f) => leafKey(f.leaf) === leafKey(leaf));
    if (clash && clash.source === source) continue;
    if (clash) {
      throw new RefusedError(
        'standing-file-clash',
        `read path ${clash.source} has the same file name as the standing ${kind} file ${source}; both would be copied to read-first/${leaf}. Nothing was created. Rename the read path's file.`,
        { leaf, sources: [clash.source, source] },
      );
    }
    out.push({ kind, project, source, leaf });
  }
  return out;
}
