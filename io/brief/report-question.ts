/**
 * The question a parked worker left in its report: the `Waiting on: <question>` line (the
 * convention every worker is told, io/brief/decision-convention.ts) and the options listed
 * right below it as bullets or numbers. Reads only; a report that cannot be read gives no options.
 * The report is the worker's (issue 37): read through io/fs/untrusted-file.ts, and what is kept
 * of it — the question, the options — is bounded in length and count.
 */
import { readUntrustedFile } from '../fs/untrusted-file.ts';

/** The longest question and option kept, and the most options (a decision is a sentence and a few choices). */
export const MAX_QUESTION_CHARS = 1000;
export const MAX_OPTION_CHARS = 300;
export const MAX_OPTIONS = 12;
const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

// Up to three spaces of indent: four is a Markdown code block, i.e. the convention's own example
// (a report that quotes the brief must not park its worker on it).
const WAITING = /^ {0,3}(?:\*\*)?(?:waiting on|parked on)(?:\*\*)?\s*:\s*(.+)$/i;
const OPTION = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;

export function parseWaitingOn(report: string): { question: string; options: string[] } | null {
  const lines = report.split(/\r?\n/);
  const at = lines.findIndex((l) => WAITING.test(l));
  if (at < 0) return null;
  const question = cut(WAITING.exec(lines[at]!)![1]!.trim(), MAX_QUESTION_CHARS);
  const options: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.trim()) {
      if (options.length) break;
      continue;
    }
    if (/^\s*(options|choices)\s*:?\s*$/i.test(line)) continue;
    const m = OPTION.exec(line);
    if (!m || options.length >= MAX_OPTIONS) break;
    options.push(cut(m[1]!, MAX_OPTION_CHARS));
  }
  return { question, options };
}

export async function readWaitingOn(reportPath: string): Promise<{ question: string; options: string[] } | null> {
  const r = await readUntrustedFile(reportPath);
  return r.kind === 'read' ? parseWaitingOn(r.text) : null;
}
