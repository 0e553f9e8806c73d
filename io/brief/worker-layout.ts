/**
 * Where one worker's files live (issue 37 item 2, agreed with the sandbox of item 1):
 *
 *   <state>/workers/<id>/            the worker's brief directory: only files the DAEMON writes and
 *                                    the worker READS (brief.md, read-first/, progress-note.md, the
 *                                    first-prompt mark, the gate's delivery record, Gemini's policy);
 *   <state>/workers/<id>/out/        the one place the worker WRITES: its report (out/report.md),
 *                                    and the reports a relaunch moved aside;
 *   <state>/briefs/<id>.md           the daemon's own copy of the brief as dispatched, in a directory
 *                                    no worker is given: what the page, a relaunch and the gates read.
 *
 * A worker dispatched before this layout keeps the report path its intent stores (the brief
 * directory itself): every place reads the report directory from the report path, never from a
 * name, so it is the old directory for such a worker.
 */
import { basename, dirname, join } from 'node:path';

/** The report directory's name inside the brief directory. */
export const REPORT_DIR_NAME = 'out';
export const REPORT_FILE = 'report.md';
export const BRIEF_FILE = 'brief.md';
export const PROGRESS_NOTE_FILE = 'progress-note.md';
/** The most of a worker's report the daemon reads (io/fs/untrusted-file.ts): a report is a page, not a data dump. */
export const REPORT_READ_CAP = 256 * 1024;
/** The daemon's brief copies, under the state directory. */
export const BRIEF_COPIES_DIR = 'briefs';

/** `<workersDir>/<id>/out`: where a worker writes. */
export function reportDirOf(briefDir: string): string {
  return join(briefDir, REPORT_DIR_NAME);
}

/** `<workersDir>/<id>/out/report.md`: a new worker's report. */
export function reportPathOf(briefDir: string): string {
  return join(reportDirOf(briefDir), REPORT_FILE);
}

/** A worker's two places, from what its intent stores (a restored worker's report directory is its old one). */
export function workerDirsOf(intent: { briefPath: string; reportPath: string }): { briefDir: string; reportDir: string } {
  return { briefDir: dirname(intent.briefPath), reportDir: dirname(intent.reportPath) };
}

/** `<state>/briefs/<id>.md` for a brief at `<state>/workers/<id>/brief.md` (the brief path is always on this machine). */
export function briefCopyPathOf(briefPath: string): string {
  const briefDir = dirname(briefPath);
  return join(dirname(dirname(briefDir)), BRIEF_COPIES_DIR, `${basename(briefDir)}.md`);
}

/** A file in the worker's report directory as a path relative to its brief directory (`out/report.md`, or `report.md` for an old worker). */
export function reportRelativePath(intent: { briefPath: string; reportPath: string }): string {
  const { briefDir } = workerDirsOf(intent);
  return intent.reportPath.startsWith(`${briefDir}/`) ? intent.reportPath.slice(briefDir.length + 1) : REPORT_FILE;
}
