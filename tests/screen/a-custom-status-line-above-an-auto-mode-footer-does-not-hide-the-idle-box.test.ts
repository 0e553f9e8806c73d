/**
 * Rule (issue 39, item 5): a custom status line (a person's `statusLine` command) drawn under the
 * box and above the auto-mode footer does not hide the idle box. 2.1.332 pads it two columns
 * (observed/2.1.332/04f-idle-custom-status-line-auto-mode, the real binary against the fake API,
 * `--permission-mode auto`); a release that prints it flush left put column-0 text under the box,
 * which read as the shell's output after an exit. Shell text comes after the agent's last frame;
 * the agent's own footer under it says the agent still draws: idle. Without that footer, column-0
 * text under the box is still exit evidence (the after-exit cases keep reading exited).
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { ansiScreen, atSize, plainScreen, rowWhere, rowsOf, SIZES } from './variants.ts';
import { fixtureText } from './helpers.ts';

const CAPTURE = 'observed/2.1.332/04f-idle-custom-status-line-auto-mode';
const base = rowsOf(`${CAPTURE}.txt`);
const status = rowWhere(base, (r) => r.includes('~/repo on main'));

const flushLeft = (lines: readonly string[]) => [...base.slice(0, status), ...lines, ...base.slice(status + 1)];

describe('a custom status line above an auto-mode footer does not hide the idle box', () => {
  it('the real capture (status line padded, auto mode on) reads idle with an empty box, plain and SGR', () => {
    for (const screen of [plainScreen(base), ansiScreen(fixtureText(`${CAPTURE}.ansi.txt`))]) {
      const r = analyseScreen(screen);
      expect([r.state, r.promptBox]).toEqual(['idle', '']);
    }
  });

  for (const [cols, height] of SIZES) {
    it(`a status line flush left, one or two rows, reads idle at ${cols}×${height}`, () => {
      for (const lines of [['~/repo on main · Opus · $0.12'], ['❯ ~/repo (main) ✓', 'ctx 12% · $0.12'], ['[Opus] 📁 repo | 🌿 main | ctx 12%']]) {
        const rows = atSize(flushLeft(lines), cols, height);
        const r = analyseScreen(plainScreen(rows, cols));
        expect([r.state, r.promptBox], lines.join(' / ')).toEqual(['idle', '']);
      }
    });
  }

  it('column-0 text under the box with no footer of the agent below it is still what the shell left: exited', () => {
    const footer = rowWhere(base, (r) => r.includes('auto mode on'));
    const rows = [...base.slice(0, footer), 'Resume this session with:', 'claude --resume 0f3c', 'user@host:~/repo$ '];
    expect(analyseScreen(plainScreen(rows)).state).toBe('exited');
    // The footer above the shell's text (the agent's last frame) does not make it live either.
    expect(analyseScreen(plainScreen([...base, 'Total cost: $0.12', 'user@host:~/repo$ '])).state).toBe('exited');
  });
});
