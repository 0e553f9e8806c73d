/**
 * Rule (issue 39, item 5): a spinner line that carries a timer and a thinking-effort label reads
 * working, however its status is drawn. 2.1.332 composes it as `✢ Verb… (suffix · 1m 3s · ↓ 2.3k
 * tokens · thinking with high effort)` (the status parts drop as the width runs out); other
 * releases leave out the parentheses or the ellipsis. A finished turn's line (`✻ Cooked for 17s ·
 * done 8:15 AM`) has no running status and stays the end of the turn. Screens: the real 2.1.332
 * spinner capture with its spinner row replaced, the footer's own interrupt hint taken away (auto
 * mode draws none) so the spinner row alone must tell.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, plainScreen, replaceRows, rowWhere, rowsOf, SIZES } from './variants.ts';

const base = rowsOf('2.1.332/05-working-spinner-a.txt');
const spinner = rowWhere(base, (r) => r.startsWith('✢ Transfiguring…'));
const footer = rowWhere(base, (r) => r.includes('esc to interrupt'));

function withSpinner(line: string): string[] {
  // The footer first (same row count), then the spinner row: the new line may hold the hint itself.
  const rows = replaceRows(base, footer, footer, ['  ⏵⏵ auto mode on (shift+tab to cycle) · ← for agents']);
  return replaceRows(rows, spinner, spinner, [line]);
}

const LIVE = [
  '✢ Transfiguring… (1m 12s · ↓ 2.3k tokens · still thinking with high effort)',
  '✢ Transfiguring… (12s · thinking with xhigh effort)',
  '✶ Transfiguring… (running Stop hook · 4s · ↓ 3 tokens · thinking with max effort)',
  '✢ Transfiguring… 12s · thinking with high effort',
  '✢ Transfiguring (1m 3s · thinking with high effort)',
  '✻ Thinking for 12s… (esc to interrupt · thinking with high effort)',
];

describe('a spinner line with a timer and an effort label reads working', () => {
  it('the capture as it is reads working (its footer says so too)', () => {
    expect(footer).toBeGreaterThan(spinner);
    expect(analyseScreen(plainScreen(base)).state).toBe('working');
  });

  for (const [cols, height] of SIZES) {
    for (const line of LIVE) {
      it(`${JSON.stringify(line)} at ${cols}×${height}`, () => {
        const rows = atSize(withSpinner(line), cols, height);
        expect(analyseScreen(plainScreen(rows, cols)).state).toBe('working');
      });
    }
  }

  it('a finished turn\'s line is still the end of the turn, and a compacted note is no spinner', () => {
    for (const line of ['✻ Cooked for 17s · done 8:15 AM', '✻ Worked for 1m 3s', '✻ Conversation compacted (ctrl+o for history)']) {
      expect(analyseScreen(plainScreen(withSpinner(line))).state, line).toBe('idle');
    }
  });

  it('a reply\'s own indented line with a timer in parentheses is no spinner', () => {
    expect(analyseScreen(plainScreen(withSpinner('  * the build took a while (12s · thinking with high effort)'))).state).toBe('idle');
  });
});
