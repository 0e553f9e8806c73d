/**
 * The question a parked worker left in its report: the `Waiting on: <question>` line (the
 * convention every worker is told, io/brief/decision-convention.ts) and the options listed
 * right below it as bullets or numbers. Reads only; a report that cannot be read gives no options.
 */
import { readFile } from 'node:fs/promises';

// Up to three spaces of indent: four is a Markdown code block, i.e. the convention's own example
// (a report that quotes the brief must not park its worker on it).
const WAITING = /^ {0,3}(?:\*\*)?(?:waiting on|parked on)(?:\*\*)?\s*:\s*(.+)$/i;
const OPTION = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;

export function parseWaitingOn(report: string): { question: string; options: string[] } | null {
  const lines = report.split(/\r?\n/);
  const at = lines.findIndex((l) => WAITING.test(l));
  if (at < 0) return null;
  const question = WAITING.exec(lines[at]!)![1]!.trim();
  const options: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.trim()) {
      if (options.length) break;
      continue;
    }
    if (/^\s*(options|choices)\s*:?\s*$/i.test(line)) continue;
    const m = OPTION.exec(line);
    if (!m) break;
    options.push(m[1]!);
  }
  return { question, options };
}

export async function readWaitingOn(reportPath: string): Promise<{ question: string; options: string[] } | null> {
  try {
    return parseWaitingOn(await readFile(reportPath, 'utf8'));
  } catch {
    return null;
  }
}
