/**
 * A submission recorded on disk before its Enter: the first prompt's (issue 25 item 1) and a
 * decision's answer (issue 43).
 *
 * A daemon that dies after the Enter but before its transitions or records reach the database (a
 * locked or full database keeps them in memory, then a SIGKILL) is restored as if the text never
 * went: it would type the brief again, or the answer again, and the agent would run it twice.
 * The mark is what the restore asks instead: written and fsynced in the worker's own directory
 * after the text is typed and before the Enter, so "marked" means "the Enter may have gone", and
 * "not marked" means it never did. The screen then tells typed-not-sent (our text still in the
 * box: one Enter) from sent (the box empty: nothing is typed). A decision's mark names the
 * decision, so one answer's mark never speaks for the next.
 *
 * It names the pane it was written for: a new pane (a relaunch, a respawn) starts unmarked.
 * Made by atomic create and read without following a link (io/fs): a worker that planted a link
 * at its name never has the daemon write through it or read where it points.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomically } from '../fs/atomic-create.ts';
import { readUntrustedFileSync } from '../fs/untrusted-file.ts';

export type SubmissionKind = 'first-prompt' | 'decision';

const MARK_FILES: Record<SubmissionKind, string> = { 'first-prompt': 'first-prompt.sent', decision: 'decision.sent' };

export interface SubmissionMark {
  paneId: string;
  at: number;
  /** The decision whose answer it is (decision marks only). */
  key?: string;
}

export type FirstPromptMark = Omit<SubmissionMark, 'key'>;

export function submissionMarkPath(workerDir: string, kind: SubmissionKind): string {
  return join(workerDir, MARK_FILES[kind]);
}

/** Writes the mark durably (data and file fsynced); throws as the file system does (ENOSPC, EROFS). */
export function writeSubmissionMark(workerDir: string, kind: SubmissionKind, mark: SubmissionMark): void {
  createFileAtomically(submissionMarkPath(workerDir, kind), JSON.stringify(mark) + '\n', { durable: true });
}

/** The mark for `paneId`, or null (none, another pane's, or unreadable: never sent as far as anyone can tell). */
export function readSubmissionMark(workerDir: string, kind: SubmissionKind, paneId: string): SubmissionMark | null {
  try {
    const r = readUntrustedFileSync(submissionMarkPath(workerDir, kind), { maxBytes: 4096 });
    if (r.kind !== 'read') return null;
    const mark = JSON.parse(r.text) as Partial<SubmissionMark>;
    if (mark.paneId !== paneId || typeof mark.at !== 'number') return null;
    return { paneId, at: mark.at, ...(typeof mark.key === 'string' && { key: mark.key }) };
  } catch {
    return null;
  }
}

export function clearSubmissionMark(workerDir: string, kind: SubmissionKind): void {
  rmSync(submissionMarkPath(workerDir, kind), { force: true });
}

// The first prompt's names, as the restore and its tests ask for them.
export const firstPromptMarkPath = (workerDir: string): string => submissionMarkPath(workerDir, 'first-prompt');
export const writeFirstPromptMark = (workerDir: string, mark: FirstPromptMark): void => writeSubmissionMark(workerDir, 'first-prompt', mark);
export const readFirstPromptMark = (workerDir: string, paneId: string): FirstPromptMark | null => {
  const m = readSubmissionMark(workerDir, 'first-prompt', paneId);
  return m ? { paneId: m.paneId, at: m.at } : null;
};
export const clearFirstPromptMark = (workerDir: string): void => clearSubmissionMark(workerDir, 'first-prompt');
