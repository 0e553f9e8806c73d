/**
 * A calibration situation whose judging the run's one-minute bound cut short is "not reached",
 * never "wrong": the reader was not given its window, and a wrong outcome blames the reader for
 * the clock. Found when an OpenCode calibration on a loaded machine reached its exit at the bound:
 * the reader said "exited" at once, but the hold had no time left and the run failed it as wrong.
 */
import { describe, expect, it } from 'vitest';
import { judgedOutcome } from '../../daemon/calibration/drive.ts';

describe("a situation's outcome", () => {
  it('is right when the reading held and the witness agreed or was silent', () => {
    expect(judgedOutcome(true, true, false)).toBe('right');
    expect(judgedOutcome(true, undefined, false)).toBe('right');
    expect(judgedOutcome(true, undefined, true)).toBe('right');
  });

  it('is wrong when the reader had its whole window and did not hold, or the witness said otherwise in time', () => {
    expect(judgedOutcome(false, undefined, false)).toBe('wrong');
    expect(judgedOutcome(true, false, false)).toBe('wrong');
  });

  it('is not reached when the bound cut the judging short, whatever the reader said by then', () => {
    expect(judgedOutcome(false, undefined, true)).toBe('not-reached');
    expect(judgedOutcome(false, true, true)).toBe('not-reached');
    expect(judgedOutcome(true, false, true)).toBe('not-reached');
  });
});
