/**
 * `hand doctor --calibrate` passes for the pinned Gemini CLI (issue 39): every situation is read
 * as what it is and its hooks say working, idle and needs-input where they speak. Its first run
 * failed at the API error — Gemini CLI 0.61.0 prints `✕ [API Error: …]` and `ℹ This request
 * failed…` above its composer, and the reader took the screen for a finished turn — which is what
 * the calibration is for: the screen it saved is now in the corpus
 * (tests/fixtures/gemini-corpus/0.61.0/tmux-api-error) and the Gemini profile reads its error line.
 */
import { describe, expect, it } from 'vitest';
import { explain, outcomes, situationOf, useCalibrationRuns, witnessHeard } from './calibration-run.ts';

const calibrate = useCalibrationRuns();

describe('Gemini CLI 0.61.0 calibrates', () => {
  it('every situation right, the API error named; every hook heard', async () => {
    const run = await calibrate('gemini');
    const r = run.result;
    expect(r.version).toBe('0.61.0');
    expect(outcomes(r), explain(r)).toEqual({
      'first-start': 'right', 'typed-text': 'right', idle: 'right', working: 'right', finished: 'right',
      permission: 'right', question: 'right', 'api-error': 'right', exit: 'right',
    });
    expect(witnessHeard(r), explain(r)).toEqual({ working: true, finished: true, permission: true });
    expect(situationOf(r, 'api-error').read).toMatch(/^idle, box empty, error "\[API Error: /);
    expect(r.verdict).toBe('pass');
    expect(r.evidence).toBeNull();
    expect(r.ms).toBeLessThan(60_000);
    expect(run.scratchLeft).toEqual([]);
  }, 90_000);
});
