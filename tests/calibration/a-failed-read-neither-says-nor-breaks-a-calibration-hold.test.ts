/**
 * Rule: a calibration reading must keep saying its situation for the hold time, over at least two
 * readings, and a read that failed is left out — it neither says the situation nor breaks the
 * hold. Seen in two loaded full runs: OpenCode read exited right after `/exit`, then its ended
 * pane could not be read for a moment, each failed read started the hold over, and the window
 * closed with the situation judged wrong although every reading taken had said it.
 */
import { describe, expect, it } from 'vitest';
import { held, holdAfter, NO_HOLD, type Hold } from '../../daemon/calibration/hold.ts';

const HOLD_MS = 1_000;
/** Readings at the times given: true says it, false does not, null is a read that failed (left out). */
function run(reads: Array<[number, boolean | null]>): { hold: Hold; heldAt: number | null } {
  let hold = NO_HOLD;
  for (const [at, says] of reads) {
    if (says !== null) hold = holdAfter(hold, says, at);
    if (held(hold, at, HOLD_MS)) return { hold, heldAt: at };
  }
  return { hold, heldAt: null };
}

describe('a failed read neither says nor breaks a calibration hold', () => {
  it('said, then reads that failed, then said again past the hold time: held', () => {
    expect(run([[0, true], [100, null], [400, null], [800, null], [1_100, true]]).heldAt).toBe(1_100);
  });

  it('a reading that does not say it starts the hold over', () => {
    expect(run([[0, true], [600, false], [1_100, true], [1_500, true]]).heldAt).toBe(null);
    expect(run([[0, true], [600, false], [1_100, true], [2_100, true]]).heldAt).toBe(2_100);
  });

  it('one reading and nothing readable after it is not enough, however long', () => {
    expect(run([[0, true], [500, null], [5_000, null]]).heldAt).toBe(null);
  });
});
