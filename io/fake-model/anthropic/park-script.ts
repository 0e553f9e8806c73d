/**
 * The fake model's held-decision turns, for real Claude Code workers: `MODE:park <path>` (in the
 * prompt or the brief) writes a report whose `Waiting on:` line asks a question with options;
 * an answer typed back by `hand decide` ("The person answered your question (decision <key>): …
 * → <answer>. … write your report to <path> …") writes the final report with the answer.
 * Both through the Write tool, as a model would.
 */
import type { ScriptItem } from './script.ts';

export const FAKE_PARK_QUESTION = 'Which queue should the fake service use?';
const ANSWER = /The person answered your question \(decision (\S+)\): .*? → (.+?)\. Carry on.*?write your report to (\S+)/s;

const clean = (raw: string) => raw.replace(/^["'`(<]+/, '').replace(/["'`)>,;:.]+$/, '');

export function parkReply(prompt: string): ScriptItem | null {
  const answer = ANSWER.exec(prompt);
  if (answer) {
    const path = clean(answer[3]!);
    const content = `# Report\n\nDone with ${answer[2]}, as decided in ${answer[1]}.\n\nNo open questions.\n`;
    return { kind: 'tool_use', name: 'Write', text: 'I will write the final report.', input: { file_path: path, content } };
  }
  const park = /MODE:park\s+(\S+)/.exec(prompt);
  if (park) {
    const path = clean(park[1]!);
    const content = `# Report\n\nI need a decision first.\n\nWaiting on: ${FAKE_PARK_QUESTION}\n- Redis\n- SQS\n`;
    return { kind: 'tool_use', name: 'Write', text: 'I need a decision; writing it down.', input: { file_path: path, content } };
  }
  return null;
}
