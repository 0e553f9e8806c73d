/**
 * Rule (issue 21, class 5): a question line followed by numbered option rows with a cursor
 * marker, near the bottom, is a dialog — awaitingInput, blocked — even without an "Enter to
 * select" footer and even when the dialog is drawn inside a frame (`│ ❯ 1. Yes │`). Screens: the
 * real idle capture with its box replaced by the dialog, at 120×40, 80×24 and 200×50.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, plainScreen, replaceRows, rowWhere, rowsOf, SIZES } from './variants.ts';

function framed(width: number, lines: string[]): string[] {
  const inner = width - 4;
  const pad = (s: string) => `│ ${s}${' '.repeat(Math.max(0, inner - [...s].length))} │`;
  return [`╭${'─'.repeat(width - 2)}╮`, ...lines.map(pad), `╰${'─'.repeat(width - 2)}╯`];
}

const QUESTION = 'Would you like to resume the previous session?';

function dialogScreen(cols: number, height: number, dialog: (width: number) => string[]): string[] {
  const base = rowsOf('2.1.332/04-idle-box.txt');
  const top = rowWhere(base, (r) => /^─{8,}$/.test(r));
  return atSize(replaceRows(base, top, base.length - 1, dialog(cols)), cols, height);
}

const SHAPES: Record<string, (width: number) => string[]> = {
  'framed, no footer': (w) => framed(Math.min(w, 70), [QUESTION, '', '❯ 1. Yes', '  2. No, start fresh']),
  'framed, cursor on the second option': (w) => framed(Math.min(w, 70), [QUESTION, '  1. Yes', '❯ 2. No, start fresh', '  3. Ask me later']),
  'bare, no footer': () => ['', ` ${QUESTION}`, '', ' ❯ 1. Yes', '   2. No, start fresh', ''],
  'another cursor marker (▶), a description under an option': () => ['', ` ${QUESTION}`, '', ' ▶ 1. Yes', '      picks up where it stopped', '   2. No, start fresh', ''],
  'a numbered option far from its cursor, a hint under them': () => ['', ` ${QUESTION}`, ' ❯ 1. Yes', ...Array.from({ length: 12 }, (_, i) => `      detail line ${i + 1} of the first option`), '   2. No, start fresh', '', '   (the choice is saved)'],
};

describe('a question over numbered options is a dialog', () => {
  for (const [shape, dialog] of Object.entries(SHAPES)) {
    for (const [cols, height] of SIZES) {
      it(`${shape} reads blocked at ${cols}×${height}`, () => {
        const reading = analyseScreen(plainScreen(dialogScreen(cols, height, dialog), cols));
        expect(reading.state).toBe('blocked');
        expect(reading.awaitingInput).toBe(true);
        expect(reading.dialog?.options.map((o) => o.n)).toEqual(dialog(cols).filter((r) => /\d\. /.test(r)).map((_, i) => i + 1));
        expect(reading.dialog?.question).toBe(QUESTION);
      });
    }
  }

  it('numbered rows without a cursor are a list, not a dialog', () => {
    const rows = dialogScreen(120, 40, (w) => framed(70, ['Steps I took:', '1. read the parser', '2. fixed the lexer']));
    expect(analyseScreen(plainScreen(rows)).state).not.toBe('blocked');
  });
});
