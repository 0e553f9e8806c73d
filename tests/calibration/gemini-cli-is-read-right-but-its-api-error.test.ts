/**
 * `hand doctor --calibrate` on the pinned Gemini CLI (issue 39): every situation is read as what
 * it is and its hooks say working, idle and needs-input where they speak — except the API error:
 * Gemini CLI 0.61.0 prints `✕ [API Error: …]` and `ℹ This request failed…` above its composer's
 * hint rows, and the screen reader takes the screen for a finished turn (no agentError; the
 * corpus holds no Gemini API error). The calibration says so, loudly, with the screens: that is
 * what it is for. When the reader learns Gemini's error line (io/screen/profiles/gemini.ts, a
 * turnError as Codex's profile has), this test fails and is changed to expect a pass.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explain, outcomes, runCalibration, type CalibrationRun } from './calibration-run.ts';

let run: CalibrationRun | undefined;
afterAll(() => run?.cleanup());

describe('Gemini CLI 0.61.0 calibrates', () => {
  it('every situation right and every hook heard, but the API error, read as a finished turn: the run fails and keeps the screens', async () => {
    run = await runCalibration('gemini');
    const r = run.result;
    expect(r.version).toBe('0.61.0');
    expect(outcomes(r), explain(r)).toEqual({
      'first-start': 'right', 'typed-text': 'right', idle: 'right', working: 'right', finished: 'right',
      permission: 'right', question: 'right', 'api-error': 'wrong', exit: 'right',
    });
    const heard = Object.fromEntries(r.situations.filter((s) => s.witness).map((s) => [s.situation, s.witness!.ok]));
    expect(heard, explain(r)).toEqual({ working: true, finished: true, permission: true });
    const error = r.situations.find((s) => s.situation === 'api-error')!;
    expect(error).toMatchObject({ expected: "idle, box empty, the turn's error named", read: 'idle, box empty' });
    expect(r.verdict).toBe('fail');
    expect(r.evidence).not.toBeNull();
    const screen = readFileSync(join(r.evidence!, '08-api-error.txt'), 'utf8');
    expect(screen).toContain('[API Error: {"error":{"code":400,"message":"The fake API refused this turn on purpose');
    expect(existsSync(join(r.evidence!, '08-api-error.ansi.txt'))).toBe(true);
    expect(r.ms).toBeLessThan(60_000);
    expect(run.scratchLeft).toEqual([]);
  }, 90_000);
});
