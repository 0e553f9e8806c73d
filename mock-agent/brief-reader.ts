/**
 * A real agent reads the brief its first prompt points at; so does the mock. The trigger words
 * that script its behaviour may then live in the brief (as in `hand demo`), and a bare
 * `MODE:report` there writes to the report path the first prompt names.
 */
import { readFileSync } from 'node:fs';

const BRIEF_PATH = /Read the brief at (\S+?)[.,;]?\s/;
const REPORT_PATH = /write your report to (\S+?)[.,;]?\s/i;

/** The prompt the mock acts on: the typed prompt plus the brief it names, if readable. */
export function withBrief(prompt: string): string {
  const brief = BRIEF_PATH.exec(`${prompt} `);
  if (!brief) return prompt;
  let text: string;
  try {
    text = readFileSync(brief[1]!, 'utf8');
  } catch {
    return prompt; // an unreadable brief is read as nothing, like a worker that could not open it
  }
  const report = REPORT_PATH.exec(`${prompt} `);
  if (report) text = text.replace(/MODE:report(?![ \t]+\S)/g, `MODE:report ${report[1]}`);
  return `${prompt}\n${text}`;
}
