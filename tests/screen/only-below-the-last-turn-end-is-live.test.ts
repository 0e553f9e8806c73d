/**
 * Rule (issue 21, class 1): only what is below the last turn's end can be live. A background or
 * sub-agent's spinner-shaped line or panel entry, a "waiting for background agents" line, or a
 * spinner line quoted in a prompt, left above a later turn-end line (`✻ <verb> for 48s`) or above
 * the error banner that ended the turn with the live box under it, is history: the worker settled.
 * Screens: real finished / API-error captures of 2.1.332 (fullscreen and classic) with only the
 * history rows inserted, at 120×40, 80×24 and 200×50.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, insertAbove, lastRowWhere, plainScreen, rowWhere, rowsOf, SIZES } from './variants.ts';

const FINISHED = ['2.1.332/08-turn-finished.txt', '2.1.332-classic/08-turn-finished.txt'];
const turnEnd = (row: string) => /^✻ \S+ for \d+s/.test(row);

const HISTORY: Record<string, string[]> = {
  'a finished sub-agent panel entry': ['● Task(Explore the parser)', '  ✶ general-purpose  Reading files… (48s · ↓ 3.1k tokens)', ''],
  'a background agent line': ['  ✢ Explore(find the lexer)… (12s · esc to interrupt)', ''],
  'the waiting-for-agents line of the turn that then closed': ['✻ Waiting for 2 background agents to finish', ''],
  'a prompt quoting a spinner line': ['❯ print this: ✢ Transfiguring… (2s · ↓ 4 tokens)', '  ✢ Transfiguring… (2s · ↓ 4 tokens)', '', '● ✢ Transfiguring… (2s · ↓ 4 tokens)', ''],
};

describe('only what is below the last turn end is live', () => {
  for (const capture of FINISHED) {
    for (const [what, rows] of Object.entries(HISTORY)) {
      for (const [cols, height] of SIZES) {
        it(`${capture}: ${what} above "✻ … for Ns" reads idle at ${cols}×${height}`, () => {
          const base = rowsOf(capture);
          const screen = atSize(insertAbove(base, lastRowWhere(base, turnEnd), rows), cols, height);
          const reading = analyseScreen(plainScreen(screen, cols));
          expect(reading.state).toBe('idle');
          expect(reading.promptBox).toBe('');
        });
      }
    }
  }

  for (const [cols, height] of SIZES) {
    it(`a sub-agent entry above the error banner that ended the turn, live box under it, reads idle at ${cols}×${height}`, () => {
      const base = rowsOf('2.1.332/12-api-error-400.txt');
      const at = rowWhere(base, (r) => r.startsWith('● API Error'));
      const screen = atSize(insertAbove(base, at, ['  ✶ Explore(find the parser)… (3s · ↓ 120 tokens)', '']), cols, height);
      const reading = analyseScreen(plainScreen(screen, cols));
      expect(reading.state).toBe('idle');
      expect(reading.agentError).toMatch(/API Error: 400/);
    });
  }

  for (const [cols, height] of SIZES) {
    it(`a sub-agent entry above any error entry that closed the turn (not an API error) reads idle at ${cols}×${height}`, () => {
      const base = rowsOf('2.1.332/12-api-error-400.txt');
      const at = rowWhere(base, (r) => r.startsWith('● API Error'));
      base[at] = '● Error: the explore agent failed: connection reset';
      const screen = atSize(insertAbove(base, at, ['  ✶ Explore(find the parser)… (3s · ↓ 120 tokens)', '']), cols, height);
      expect(analyseScreen(plainScreen(screen, cols)).state).toBe('idle');
    });
  }

  it('a spinner below the last turn end is still live (the next turn is running)', () => {
    const base = rowsOf('2.1.332/08-turn-finished.txt');
    const at = lastRowWhere(base, turnEnd) + 1;
    const screen = insertAbove(base, at, ['', '❯ next task', '', '✢ Transfiguring… (2s · ↓ 4 tokens)']);
    expect(analyseScreen(plainScreen(screen)).state).toBe('working');
  });

  it('the real working captures still read working', () => {
    for (const capture of ['2.1.332/05-working-spinner-a.txt', '2.1.332/05c-working-tool-running.txt', '2.1.332-classic/05-working-spinner-b.txt']) {
      expect(analyseScreen(plainScreen(rowsOf(capture))).state, capture).toBe('working');
    }
  });
});
