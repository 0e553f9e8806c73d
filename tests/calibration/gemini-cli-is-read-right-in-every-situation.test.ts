/**
 * `hand doctor --calibrate` passes for the pinned Gemini CLI (issue 39): every situation is read
 * as what it is and its hooks say working, idle and needs-input where they speak. Its first run
 * failed at the API error — Gemini CLI 0.61.0 prints `✕ [API Error: …]` and `ℹ This request
 * failed…` above its composer, and the reader took the screen for a finished turn — which is what
 * the calibration is for: the screen it saved is now in the corpus
 * (tests/fixtures/gemini-corpus/0.61.0/tmux-api-error) and the Gemini profile reads its error line.
 */
import { describe, expect, it } from 'vitest';
import { expectAFullPass, situationOf, useCalibrationRuns } from './calibration-run.ts';

const calibrate = useCalibrationRuns();

describe('Gemini CLI 0.61.0 calibrates', () => {
  it('every situation right, the API error named; every hook heard', async () => {
    const r = expectAFullPass(await calibrate('gemini'), { pinned: '0.61.0', heard: { working: true, finished: true, permission: true } });
    expect(situationOf(r, 'api-error').read).toMatch(/^idle, box empty, error "\[API Error: /);
  }, 90_000);
});
