/**
 * The mock's held-decision turns, following the convention every worker is told
 * (io/brief/decision-convention.ts):
 *  - `MODE:park` (in the prompt or the brief it names): writes a report whose `Waiting on:` line
 *    asks a question with two options, to the report path the first prompt names, and ends the turn;
 *    a line `PARK-QUESTION: <text>` in the brief puts that text on the Waiting on line instead
 *    (a hostile worker's words, for the tests that they reach the Hand only as data);
 *  - an answer typed back by `hand decide` ("The person answered your question (decision <key>): … → <answer>.")
 *    makes it write the final report (with the answer, no Waiting on line) and end the turn.
 */
import type { Step, Timings } from './steps.ts';

export const PARK_QUESTION = 'Which database should the mock project use?';
export const PARK_OPTIONS = ['SQLite', 'Postgres'];
const REPORT_PATH = /write your report to (\S+?)[.,;]?\s/i;
const ANSWER = /The person answered your question \(decision (\S+)\): .*? → (.+?)\. Carry on/s;

export function parkSteps(prompt: string, t: Timings): Step[] | null {
  const report = REPORT_PATH.exec(`${prompt} `);
  if (!report) return null;
  const path = report[1]!;
  const think: Step = { kind: 'think', ms: t.replyMs };
  const answer = ANSWER.exec(prompt);
  if (answer) {
    const content = ['# Report', '', '## Summary', `Done, using ${answer[2]} as decided (${answer[1]}).`, '', '## Open questions', 'None.', ''].join('\n');
    return [think, { kind: 'write', path, content }, { kind: 'reply', text: `I used ${answer[2]} and wrote the report to ${path}.` }];
  }
  if (prompt.includes('MODE:park')) {
    const question = /^PARK-QUESTION: (.+)$/m.exec(prompt)?.[1] ?? PARK_QUESTION;
    const content = ['# Report', '', '## Summary', 'I need a decision before I go on.', '', `Waiting on: ${question}`, ...PARK_OPTIONS.map((o) => `- ${o}`), ''].join('\n');
    return [think, { kind: 'write', path, content }, { kind: 'reply', text: `I need a decision; it is in ${path}.` }];
  }
  return null;
}
