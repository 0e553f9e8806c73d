/**
 * Every worker is told the held-decision convention: its first prompt and the brief it is given
 * say that a question goes into report.md as a `Waiting on:` line and the turn ends — never an
 * interactive prompt. The brief section is added once, however often a brief is staged.
 */
import { describe, expect, it } from 'vitest';
import { firstPrompt } from '../../daemon/fleet/dispatch.ts';
import { DECISION_HEADING, withDecisionConvention } from '../../io/brief/decision-convention.ts';
import { parseWaitingOn } from '../../io/brief/report-question.ts';

describe('the decision convention', () => {
  it('the first prompt names the report and the Waiting on line, and rules out interactive prompts', () => {
    const p = firstPrompt('/s/workers/w1/brief.md', '/s/workers/w1/report.md');
    expect(p).toContain('write your report to /s/workers/w1/report.md');
    expect(p).toContain('"Waiting on: <question>"');
    expect(p).toMatch(/never wait on an interactive prompt/);
  });

  it('the brief gets the section once; the example in it is a report the daemon would park on', () => {
    const once = withDecisionConvention('# Brief\n\n## Read first\n\nNothing.\n');
    expect(once.split(DECISION_HEADING)).toHaveLength(2);
    expect(withDecisionConvention(once)).toBe(once);
    const example = once.split('\n').filter((l) => l.startsWith('    ')).map((l) => l.trim()).join('\n');
    expect(parseWaitingOn(example)).toEqual({ question: 'Which database should the service use?', options: ['SQLite', 'Postgres'] });
  });

  it('a report that quotes the convention (its example indented as a code block) parks on nothing', () => {
    expect(parseWaitingOn(`# Report\n\n## Prompt\n${withDecisionConvention('# Brief\n')}`)).toBeNull();
    expect(parseWaitingOn('# Report\n\n  Waiting on: Which one?\n- A\n')).toEqual({ question: 'Which one?', options: ['A'] });
  });
});
