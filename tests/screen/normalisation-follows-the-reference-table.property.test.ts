/**
 * The fingerprint's normalisation is the reference's (control-plane §3.6), however it is computed:
 * the shapes of its table (plus the documented spinner extension) replaced by one space in order,
 * case-insensitive, then split into lines, whitespace runs collapsed to one space, trimmed, empty
 * lines dropped. The implementation skips passes and rewrites only the runs that change; this
 * holds it to the plain definition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseScreen } from '../../io/screen/normalise.ts';
import { NBSP, normalisationRow, screenOfRows } from './helpers.ts';

/** The reference table, rows 1-6, then the extension (✢ ✶ in the glyph class, a line-leading `*`). */
const REFERENCE_SHAPES = [
  /\x1b\[[0-9;?]*[a-zA-Z]/gi,
  /\b\d+h\s*\d*\s*m\b/gi,
  /\b\d+m\s*\d*\s*s\b/gi,
  /\b\d+(\.\d+)?\s*s\b/gi,
  /\b\d+(\.\d+)?[kKmM]?\s*tokens?\b/gi,
  /[✦✳✹✻✽∗·∙●○\u2800-\u28ff✢✶]/gi,
  /^([ \t]*)\*(?=\s)/gm,
];

function referenceNormalise(rows: readonly string[]): string[] {
  let text = rows.join('\n');
  for (const shape of REFERENCE_SHAPES) text = text.replace(shape, ' ');
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}

describe('normalisation is the reference definition', () => {
  it('for rows made of volatile shapes and every kind of whitespace', () => {
    fc.assert(
      fc.property(fc.array(normalisationRow, { maxLength: 12 }), (rows) => {
        expect(normaliseScreen(screenOfRows(rows))).toEqual(referenceNormalise(rows));
      }),
      { numRuns: 2000 },
    );
  });

  it('for arbitrary text, newlines included', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 60 }), { maxLength: 12 }), (rows) => {
        expect(normaliseScreen(screenOfRows(rows))).toEqual(referenceNormalise(rows));
      }),
      { numRuns: 1000 },
    );
  });

  it('collapses every whitespace kind, keeps what is not whitespace', () => {
    const rows = [`\t a${NBSP}${NBSP}b\u3000c \u2028 d\ufeff`, ' \u0085 \u180e '];
    // U+2028 is whitespace inside a line (only \n splits); U+0085 and U+180E are not JS
    // whitespace and stay, as with the reference's \s.
    expect(normaliseScreen(screenOfRows(rows))).toEqual(['a b c d', '\u0085 \u180e']);
    expect(referenceNormalise(rows)).toEqual(['a b c d', '\u0085 \u180e']);
  });
});
