/**
 * Codex's approval ends in `Press enter to confirm or esc to cancel` under its numbered options.
 * Right after a person answers, Codex collapses the approval while it writes `✔ You approved …`
 * above it, and for a frame or two the footer and the first option's row can still stand with
 * the rest of the menu gone (CI caught it: `hand wait --until settled` woke on a "dialog" whose
 * options were the lines of the echoed first prompt). A footer without the menu it belongs to asks
 * nothing; the echoed prompt at column 0 is never a list of options; the full approval still reads
 * blocked.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain } from '../../../io/screen/index.ts';

const ECHO = [
  '› Read the brief at /tmp/w/state/workers/cx-ask/brief.md in full before you start, then',
  '  do the work it describes. Done means: your commits and any pull request text say what changed',
  '  and why, with no mention of an AI. When you are done, or if you need a decision from a person,',
  '  write your report to /tmp/w/state/workers/cx-ask/report.md and end your turn.',
];
const HEAD = ['', '  >_ OpenAI Codex (v0.169.0)', '     /tmp/w/asked/.claude/worktrees/cx-ask', '', '', ...ECHO, '', '', '• I will commit and report.', ''];

function read(rows: string[]) {
  return analyseScreen(parsePlain(`${rows.join('\n')}\n`, { cols: 100, rows: 30 }), 'codex');
}

describe('a confirm footer left behind by an answered Codex approval', () => {
  it('with one option row and no question over it, is not blocked and reads no dialog', () => {
    const reading = read([
      ...HEAD,
      '✔ You approved codex to run echo feature > feature.txt && git add feature.txt this time',
      '',
      '• Running echo feature > feature.txt && git add feature.txt',
      "  $ echo feature > feature.txt && git add feature.txt && printf '%s' 'Status: done.' > '/tmp/w-",
      '› 1. Yes, proceed (y)',
      '  Press enter to confirm or esc to cancel',
    ]);
    expect(reading.awaitingInput).toBe(false);
    expect(reading.state).not.toBe('blocked');
    expect(reading.dialog ?? null).toBeNull();
  });

  it('the whole approval, question and three options over the footer, is blocked on permission with the options in order', () => {
    const reading = read([
      ...HEAD,
      '• Running echo feature > feature.txt',
      '',
      '  Would you like to run the following command?',
      '',
      '  Reason: May I commit feature.txt and write the report?',
      '',
      '  $ echo feature > feature.txt',
      '',
      '› 1. Yes, proceed (y)',
      "  2. Yes, and don't ask again for commands that start with `echo feature` (p)",
      '  3. No, and tell Codex what to do differently (esc)',
      '',
      '  Press enter to confirm or esc to cancel',
    ]);
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'permission']);
    expect(reading.dialog?.options.map((o) => o.n)).toEqual([1, 2, 3]);
    expect(reading.dialog?.options[0]?.label).toBe('Yes, proceed (y)');
  });

  it('a footer over a two-option menu with no question words is still a dialog', () => {
    const reading = read([
      ...HEAD,
      '  Apply this change?',
      '',
      '› 1. Yes',
      '  2. No (esc)',
      '',
      '  Press enter to confirm or esc to cancel',
    ]);
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'dialog']);
    expect(reading.dialog?.options.map((o) => o.label)).toEqual(['Yes', 'No (esc)']);
  });
});
