/**
 * The held-decision convention every worker is told, in its first prompt and at the end of its
 * brief: a question for the person is never asked interactively; it goes into report.md as a
 * `Waiting on:` line (with the options as bullets right below), and the worker ends its turn.
 * The daemon parks the worker on that line, opens a decision record, and types the answer back in.
 */

export const DECISION_HEADING = '## When you need a decision';

export const DECISION_SECTION = [
  DECISION_HEADING,
  '',
  'Never ask the person through an interactive prompt or menu. Write your report instead, with one line',
  '`Waiting on: <the question, in one line>` followed by the options as bullets right below it, e.g.',
  '',
  '    Waiting on: Which database should the service use?',
  '    - SQLite',
  '    - Postgres',
  '',
  'then end your turn. The answer is typed back to you; carry on from there.',
].join('\n');

export const FIRST_PROMPT_CONVENTION =
  'If you need a decision from a person, put it in that report as a line "Waiting on: <question>" with the options as bullets below it, and end your turn';

/** The brief with the convention section appended once (re-staging the same brief adds nothing). */
export function withDecisionConvention(text: string): string {
  if (text.split(/\r?\n/).some((l) => l.trim() === DECISION_HEADING)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.replace(/(\r?\n)*$/, '');
  return `${body}${eol}${eol}${DECISION_SECTION.split('\n').join(eol)}${eol}`;
}
