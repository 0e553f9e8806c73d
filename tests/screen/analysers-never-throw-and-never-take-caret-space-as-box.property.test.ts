/**
 * Properties over arbitrary input: the parsers and analysers never throw and always return a
 * well-formed reading; a row whose caret is followed by a plain space is never the live box;
 * timer repaints never move the fingerprint while other digits always do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyseScreen,
  fingerprintScreen,
  isReadable,
  parseAnsi,
  parsePlain,
  readPromptBox,
  screenFromLines,
  type Screen,
  type ScreenReading,
} from '../../io/screen/index.ts';
import { BOX, CARET, NBSP, RULE } from './helpers.ts';

const STATES = ['working', 'idle', 'blocked', 'exited', 'unknown'];

function expectWellFormed(r: ScreenReading): void {
  expect(STATES).toContain(r.state);
  expect(r.awaitingInput).toBe(r.blockedReason !== null);
  expect(r.state === 'blocked').toBe(r.awaitingInput);
  expect(r.promptBox === null).toBe(r.promptBoxKind === null);
  expect(r.fingerprint).toMatch(/^([0-9a-f]{16})?$/);
  if (!r.readable) expect([r.fingerprint, r.lastActivity]).toEqual(['', '']);
  if (r.state === 'idle') expect(r.readable && r.promptBox !== null).toBe(true);
}

function exercise(screen: Screen): void {
  expectWellFormed(analyseScreen(screen));
  readPromptBox(screen);
  isReadable(screen);
  fingerprintScreen(screen);
  for (const line of screen.lines) {
    expect(line.text.endsWith(' ')).toBe(false);
    if (line.spans !== undefined) expect(line.spans.map((s) => s.text).join('')).toBe(line.text);
  }
}

/** Pieces that make ANSI-ish and screen-ish text likely, mixed with arbitrary strings. */
const piece = fc.oneof(
  fc.constantFrom(
    '\x1b[', '\x1b]', '\x1bP', '\x1b(', '\x07', '\x1b\\', '\x1b', ';', ':', 'm', '38;5;', '48;2;', '0;2', '7', '22', '?1049h',
    '>4;2m', '\n', '\r\n', '\t', CARET, NBSP, ' ', '│', '>', '…', '✻ ', '·', 'esc to interrupt', 'Do you want to', 'Esc to cancel',
    RULE, BOX, 'Resume this session with:', 'Pane is dead (status 0', 'Try "', '"', 'Message @', '\u0000', '\u009b', '\ud800',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const ansiText = fc.array(piece, { maxLength: 120 }).map((parts) => parts.join(''));

describe('the analysers never throw and always give a well-formed reading', () => {
  it('plain parse of arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => exercise(parsePlain(text))), { numRuns: 300 });
  });

  it('plain and SGR parse of arbitrary escape-laden text', () => {
    fc.assert(
      fc.property(ansiText, fc.option(fc.nat(60)), (text, rows) => {
        const opts = rows === null ? {} : { rows };
        exercise(parseAnsi(text, opts));
        exercise(parsePlain(text, opts));
      }),
      { numRuns: 500 },
    );
  });

  it('host-built rows with arbitrary spans', () => {
    const span = fc.record({
      text: fc.string({ maxLength: 12 }),
      attrs: fc.record({ dim: fc.boolean(), inverse: fc.boolean(), fg: fc.constantFrom('38;5;244', '31') }, { requiredKeys: [] }),
    });
    const row = fc.array(span, { maxLength: 6 }).map((spans) => ({ text: spans.map((s) => s.text).join(''), spans }));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 45 }), fc.nat(50), (rows, height) => exercise(screenFromLines(rows, 120, height))),
      { numRuns: 300 },
    );
  });
});

describe('a caret followed by a plain space is never read as the box', () => {
  const noNewline = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ''));
  // The caret + space must be followed by something visible: a caret with only whitespace after
  // it between two rules is the empty box after a trim (see prompt-box-is-caret-plus-nbsp-only).
  const caretSpaceRow = fc
    .tuple(fc.constantFrom('', ' ', '  ', '│ ', ' │ '), noNewline.filter((s) => s.trim() !== ''))
    .map(([lead, rest]) => `${lead}${CARET} ${rest}`);
  // `>` + NBSP is the 2.0.x box, and a bare prompt glyph is the trimmed empty box.
  const otherRow = noNewline.filter((s) => !s.includes(`${CARET}${NBSP}`) && !s.includes(`>${NBSP}`) && !/^[\s│]*[❯>][\s│]*$/.test(s));

  it('screens made only of caret+space rows and rows without caret+NBSP have no box', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(caretSpaceRow, otherRow, fc.constant(RULE)), { maxLength: 40 }), (rows) => {
        const screen = parsePlain(rows.join('\n'));
        expect(readPromptBox(screen)).toBeNull();
        expect(analyseScreen(screen).promptBox).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

describe('fingerprint: timers and counters never count as progress, other digits always do', () => {
  const screenWith = (spinner: string, progress: string): Screen =>
    parsePlain([`● Running the suite: ${progress} tests passed so far`, spinner, RULE, BOX, RULE, '  ⏸ manual mode on · esc to interrupt'].join('\n'));

  it('any elapsed time and token count repaint to the same fingerprint', () => {
    const timer = fc.oneof(
      fc.nat(59).map((s) => `${s}s`),
      fc.tuple(fc.integer({ min: 1, max: 59 }), fc.nat(59)).map(([m, s]) => `${m}m ${s}s`),
      fc.tuple(fc.integer({ min: 1, max: 9 }), fc.nat(59)).map(([h, m]) => `${h}h ${m}m`),
    );
    const tokens = fc.oneof(fc.nat(999).map(String), fc.tuple(fc.nat(99), fc.nat(9)).map(([a, b]) => `${a}.${b}k`));
    fc.assert(
      fc.property(timer, tokens, timer, tokens, (t1, k1, t2, k2) => {
        const a = fingerprintScreen(screenWith(`✻ Undulating… (${t1} · ↓ ${k1} tokens)`, '142/300'));
        const b = fingerprintScreen(screenWith(`✢ Undulating… (${t2} · ↓ ${k2} tokens)`, '142/300'));
        expect(a).toBe(b);
      }),
      { numRuns: 300 },
    );
  });

  it('a different progress count always changes it', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), (x, y) => {
        fc.pre(x !== y);
        const spinner = '✻ Undulating… (3s · ↓ 6 tokens)';
        expect(fingerprintScreen(screenWith(spinner, `${x}/300`))).not.toBe(fingerprintScreen(screenWith(spinner, `${y}/300`)));
      }),
      { numRuns: 300 },
    );
  });
});
