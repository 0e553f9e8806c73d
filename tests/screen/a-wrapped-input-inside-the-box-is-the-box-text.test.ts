/**
 * Rule (issue 21, class 4): a wrapped input continuing inside the box is the box's text, not a
 * menu or a dialog. When the box's first row is drawn `❯` + a plain space (a capture path that
 * turned the NBSP into a space) and the text wraps onto continuation rows aligned under it, the
 * rows between the last two rules are the input; a stale prompt line above them (an earlier
 * turn's permission question) is history and must not make the worker read blocked.
 * Screens: the real finished capture with a stale dialog above and a wrapped input in its box.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, plainScreen, replaceRows, rowWhere, rowsOf, SIZES } from './variants.ts';

const WORDS = 'please rewrite the parser so that it keeps every rendition and then run the whole suite again before you report back to me with the numbers, the failures you saw on the way, what you changed to fix each of them and what is left to do tomorrow morning';

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}

function screenWith(cols: number, height: number, stale: string[], sep: string): string[] {
  const base = rowsOf('2.1.332/08-turn-finished.txt');
  const box = rowWhere(base, (r) => r.startsWith('❯') && r.trim().length <= 2);
  const lines = wrap(WORDS, cols - 4);
  const input = [`❯${sep}${lines[0]}`, ...lines.slice(1).map((l) => `  ${l}`)];
  const rows = replaceRows(base, box - 1, box + 1, [...stale, '─'.repeat(cols), ...input, '─'.repeat(cols)]);
  return atSize(rows, cols, height);
}

const STALE = [' Do you want to make this edit to parser.ts?', ' ❯ 1. Yes', '   2. No', ''];

describe('a wrapped input inside the box is the box text', () => {
  for (const [cols, height] of SIZES) {
    for (const sep of [' ', '\u00a0']) {
      it(`a stale prompt above a wrapped input (glyph + ${sep === ' ' ? 'space' : 'NBSP'}) reads idle with the text at ${cols}×${height}`, () => {
        const reading = analyseScreen(plainScreen(screenWith(cols, height, STALE, sep), cols));
        expect(reading.state).toBe('idle');
        expect(reading.awaitingInput).toBe(false);
        expect(reading.promptBox?.replace(/\n/g, ' ')).toBe(WORDS);
        expect(reading.promptBoxKind).toBe('typed');
      });
    }
  }

  it('a short cursor row between two rules is still a menu, never a box', () => {
    const base = rowsOf('2.1.332/08-turn-finished.txt');
    const box = rowWhere(base, (r) => r.startsWith('❯') && r.trim().length <= 2);
    const rows = replaceRows(base, box - 1, box + 1, [' Do you want to proceed?', '─'.repeat(120), '❯ Yes', '  No', '─'.repeat(120)]);
    const reading = analyseScreen(plainScreen(rows));
    expect(reading.promptBox).toBeNull();
    expect(reading.state).toBe('blocked');
  });

  it('an echoed first prompt that wraps in the transcript, with the turn under it, is history, not the box', () => {
    // A real worker's first prompt is long: echoed as `❯ Read the brief …` it fills the width and
    // wraps, and the turn's entries follow it before the next rule (seen on 2.1.197).
    const base = rowsOf('2.1.332/08-turn-finished.txt');
    const box = rowWhere(base, (r) => r.startsWith('❯') && r.trim().length <= 2);
    const lines = wrap(WORDS, 116);
    const echoed = [`❯ ${lines[0]}`, ...lines.slice(1).map((l) => `  ${l}`), '', '● I will read the brief.', '', '  Read 1 file', '', '● Write(report.md)'];
    const rows = replaceRows(base, box - 1, box + 1, ['─'.repeat(120), ...echoed, '─'.repeat(120)]);
    const reading = analyseScreen(plainScreen(rows));
    expect(reading.promptBoxKind).not.toBe('typed');
    expect(reading.promptBox ?? '').not.toContain('I will read the brief');
  });
});
