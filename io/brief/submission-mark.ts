/**
 * The first prompt's submission, recorded on disk before its Enter (issue 25 item 1).
 *
 * A daemon that dies after the Enter but before its transitions reach the database (a locked or
 * full database keeps them in memory, then a SIGKILL) is restored at a stage from before the
 * prompt went out. Reading the journal, it would type the brief again and the agent would run it
 * twice. This mark is what the restore asks instead: written and fsynced in the worker's own
 * directory after the text is typed and before the Enter, so "marked" means "the Enter may have
 * gone", and "not marked" means it never did. The screen then tells typed-not-sent (our text
 * still in the box: one Enter) from sent (the box empty: nothing is typed).
 *
 * It names the pane it was written for: a new pane (a relaunch, a respawn) starts unmarked.
 * Made by atomic create and read without following a link (io/fs): a worker that planted a link
 * at its name never has the daemon write through it or read where it points.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomically } from '../fs/atomic-create.ts';
import { readUntrustedFileSync } from '../fs/untrusted-file.ts';

const MARK_FILE = 'first-prompt.sent';

export interface FirstPromptMark {
  paneId: string;
  at: number;
}

export function firstPromptMarkPath(workerDir: string): string {
  return join(workerDir, MARK_FILE);
}

/** Writes the mark durably (data and file fsynced); throws as the file system does (ENOSPC, EROFS). */
export function writeFirstPromptMark(workerDir: string, mark: FirstPromptMark): void {
  createFileAtomically(firstPromptMarkPath(workerDir), JSON.stringify(mark) + '\n', { durable: true });
}

/** The mark for `paneId`, or null (none, another pane's, or unreadable: never sent as far as anyone can tell). */
export function readFirstPromptMark(workerDir: string, paneId: string): FirstPromptMark | null {
  try {
    const r = readUntrustedFileSync(firstPromptMarkPath(workerDir), { maxBytes: 4096 });
    if (r.kind !== 'read') return null;
    const mark = JSON.parse(r.text) as Partial<FirstPromptMark>;
    return mark.paneId === paneId && typeof mark.at === 'number' ? { paneId, at: mark.at } : null;
  } catch {
    return null;
  }
}

export function clearFirstPromptMark(workerDir: string): void {
  rmSync(firstPromptMarkPath(workerDir), { force: true });
}
