/**
 * Rule (issue 21, class 3): after `/exit` on the classic renderer the last frame — a dead empty
 * box and its footer — stays on screen above what the shell printed next (the cost summary,
 * `Resume this session with:`, a shell prompt). A box with lines below it that are neither rules
 * nor the footer (Claude Code indents its footer; what the process leaves behind starts at
 * column 0) is not live: the agent is gone. Screens: real after-exit captures with the tmux
 * dead-pane line removed (a pty host or a pane without remain-on-exit shows none).
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, insertAbove, plainScreen, rowWhere, rowsOf, SIZES } from './variants.ts';

const PANE_DEAD = /^Pane is dead/;
const withoutDeadPane = (capture: string) => rowsOf(capture).filter((r) => !PANE_DEAD.test(r));

describe('what is below the box says the agent is gone', () => {
  for (const [cols, height] of SIZES) {
    it(`2.0.0 /exit: the cost summary below the dead box reads exited at ${cols}×${height}`, () => {
      const rows = atSize(withoutDeadPane('../claude-corpus/2.0.0/tmux-after-exit.txt'), cols, height);
      const reading = analyseScreen(plainScreen(rows, cols));
      expect(reading.state).toBe('exited');
      expect(reading.promptBox).toBeNull();
    });

    it(`2.1.50 /exit: a shell prompt below the dead box and its footer reads exited at ${cols}×${height}`, () => {
      const rows = atSize([...withoutDeadPane('../claude-corpus/2.1.50/tmux-after-exit.txt'), 'user@host:~/repo$ '], cols, height);
      expect(analyseScreen(plainScreen(rows, cols)).state).toBe('exited');
    });

    it(`2.1.332 classic: a finished turn's box with the cost summary under its footer reads exited at ${cols}×${height}`, () => {
      const base = rowsOf('2.1.332-classic/08-turn-finished.txt');
      const rows = atSize([...base, 'Total cost:            $0.0000', 'Total duration (API):  17s', '$ '], cols, height);
      expect(analyseScreen(plainScreen(rows, cols)).state).toBe('exited');
    });
  }

  it('the footer itself (indented rows under the box, notices included) is not a sign of exit', () => {
    // 2.1.50 draws an installer notice as its footer; without the dead-pane line nothing says it ended
    expect(analyseScreen(plainScreen(withoutDeadPane('../claude-corpus/2.1.50/tmux-after-exit.txt'))).state).toBe('idle');
    for (const capture of ['2.1.332/08-turn-finished.txt', '2.1.332-classic/08-turn-finished.txt', '2.1.332/09b-slash-menu-exit.txt']) {
      expect(analyseScreen(plainScreen(rowsOf(capture))).state, capture).not.toBe('exited');
    }
  });

  it('column-0 text above the box is transcript, not exit evidence', () => {
    const base = rowsOf('2.1.332-classic/08-turn-finished.txt');
    const rows = insertAbove(base, rowWhere(base, (r) => /^✻ /.test(r)), ['Total cost: $1.00', '$ echo hi', '']);
    expect(analyseScreen(plainScreen(rows)).state).toBe('idle');
  });
});
