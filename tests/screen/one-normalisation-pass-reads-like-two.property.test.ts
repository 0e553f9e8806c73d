/**
 * A reading normalises the screen once and cuts the transcript's last-activity lines out of that
 * run (io/screen/progress-text.ts). It must read exactly like normalising the whole screen and
 * the transcript rows separately, as analysis did before: the same fingerprint body and the same
 * last activity, for every cut — including the rows where one run and two runs see different
 * text (a `*` at the end of the transcript, a timer split over two rows).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseScreen } from '../../io/screen/normalise.ts';
import { lastActivityOf } from '../../io/screen/last-activity.ts';
import { FRAME_ONLY, progressText } from '../../io/screen/progress-text.ts';
import { RULE, normalisationRow, screenOfRows } from './helpers.ts';

/** The two-run reading: the whole screen, then the transcript rows on their own. */
function twoRuns(texts: readonly string[], cut: number): { lines: string[]; lastActivity: string } {
  const transcript = normaliseScreen(screenOfRows(texts.slice(0, cut))).filter((l) => !FRAME_ONLY.test(l));
  return { lines: normaliseScreen(screenOfRows(texts)), lastActivity: lastActivityOf(transcript) };
}

function expectLikeTwoRuns(texts: readonly string[], cut: number): void {
  expect(progressText(texts, cut)).toEqual(twoRuns(texts, cut));
}

// Now and then a row holding a \n itself (a host could hand one over): the slow path must take it.
const rowMaybeNewline = fc.oneof({ arbitrary: normalisationRow, weight: 12 }, { arbitrary: fc.constant('4\n s'), weight: 1 });
const screenAndCut = fc
  .array(rowMaybeNewline, { maxLength: 12 })
  .chain((texts) => fc.tuple(fc.constant(texts), fc.nat(texts.length)));

describe('one normalisation run reads like two', () => {
  it('for any rows and any transcript end, both views equal the two-run reading', () => {
    fc.assert(
      fc.property(screenAndCut, ([texts, cut]) => expectLikeTwoRuns(texts, cut)),
      { numRuns: 2000 },
    );
  });

  it('a line-leading `*` that ends the transcript is stripped only when a row follows it', () => {
    const texts = ['● Running the suite', '  *', RULE];
    // In the whole screen the `*` has a \n after it and is a spinner frame; alone it is text.
    expect(progressText(texts, 2).lastActivity).toBe('Running the suite | *');
    expectLikeTwoRuns(texts, 2);
  });

  it('a timer split over two rows joins them; the transcript is then normalised on its own', () => {
    const texts = ['● waited 5', 's more', '✻ Baked for 4s', 'after'];
    // `5\ns` is one `47s`-shaped match: the two rows become one line.
    expect(normaliseScreen(screenOfRows(texts))).toEqual(['waited more', 'Baked for', 'after']);
    for (let cut = 0; cut <= texts.length; cut++) expectLikeTwoRuns(texts, cut);
  });

  it('whole screen, no transcript, and a row holding a \\n', () => {
    expectLikeTwoRuns(['a 3s', 'b'], 2);
    expectLikeTwoRuns(['a 3s', 'b'], 0);
    expectLikeTwoRuns(['x 4\n s', 'y', '*'], 2);
  });
});
