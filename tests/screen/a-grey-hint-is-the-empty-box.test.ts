/**
 * Claude Code 1.0.0 draws its empty box's hint (`Try "fix typecheck errors"`) in a grey
 * foreground (`38;5;246`), not dim as 1.0.128 and every 2.x do; typed text is the default colour
 * in both. The box reader counts a grey as muted, so that hint is the empty box (a send may go),
 * the same words in the default colour were typed (a send is refused), and the greys it takes
 * for muted are mid greys only.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi } from '../../io/screen/index.ts';
import { isGreyForeground } from '../../io/screen/prompt-box.ts';

const NB = '\u00a0';
const TOP = `\x1b[2m\x1b[38;5;244m╭${'─'.repeat(118)}╮`;
const BOTTOM = `╰${'─'.repeat(118)}╯\x1b[0m`;
const BANNER = [`\x1b[38;5;174m╭${'─'.repeat(51)}╮`, `│\x1b[39m \x1b[38;5;174m✻\x1b[39m Welcome to \x1b[1mClaude Code\x1b[0m!${' '.repeat(25)}\x1b[38;5;174m│`, `╰${'─'.repeat(51)}╯\x1b[39m`, ''];

function boxRow(content: string): string {
  return `│\x1b[0m\x1b[39m\x1b[49m${NB}>${NB}${content}\x1b[39m${' '.repeat(40)}\x1b[2m\x1b[38;5;244m│`;
}

function read(content: string) {
  const text = [...BANNER, TOP, boxRow(content), BOTTOM, '\x1b[0m  \x1b[2m? for shortcuts\x1b[0m', ''].join('\n');
  return analyseScreen(parseAnsi(text, { cols: 120, rows: 12 }), 'claude@1.0.0');
}

describe('the 1.x rounded box with a grey hint', () => {
  it('a grey hint after the cursor cell is the empty box', () => {
    const reading = read(`\x1b[7mT\x1b[0m\x1b[38;5;246m\x1b[49mry "fix typecheck errors"`);
    expect([reading.state, reading.promptBox, reading.promptBoxKind]).toEqual(['idle', '', 'placeholder']);
  });

  it('the same words in the default colour were typed', () => {
    const reading = read(`Try "fix typecheck errors"\x1b[7m \x1b[0m`);
    expect([reading.state, reading.promptBox, reading.promptBoxKind]).toEqual(['idle', 'Try "fix typecheck errors"', 'typed']);
  });

  it('other grey text in the box is not typed text either: a suggestion, which a send refuses', () => {
    const reading = read(`\x1b[7mr\x1b[0m\x1b[38;5;246mun the tests`);
    expect([reading.promptBox, reading.promptBoxKind]).toEqual(['run the tests', 'suggestion']);
  });

  it('greys are mid greys: bright black, 256-colour 8 and 238–250, equal true-colour channels', () => {
    for (const fg of ['90', '38;5;8', '38;5;238', '38;5;246', '38;5;250', '38;2;128;128;128', '38;2;100;104;98']) expect(isGreyForeground(fg), fg).toBe(true);
    for (const fg of [undefined, '31', '37', '97', '38;5;174', '38;5;255', '38;5;232', '38;2;200;200;200', '38;2;120;60;60']) expect(isGreyForeground(fg), String(fg)).toBe(false);
  });
});
