/**
 * `hand doctor --calibrate` passes for the pinned Codex CLI (issue 39): every situation it has is
 * read as what it is, its notify witness says idle at a finished turn, and the question menu is
 * said not to apply in Codex CLI's own words — outside Plan mode, the mode every worker runs in,
 * its question tool answers itself and no menu is drawn — never silently skipped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { explain, outcomes, runCalibration, type CalibrationRun } from './calibration-run.ts';

let run: CalibrationRun | undefined;
afterAll(() => run?.cleanup());

describe('Codex CLI 0.169.0 calibrates', () => {
  it('every situation right but the question menu, which it does not draw outside Plan mode; the witness heard at the finished turn', async () => {
    run = await runCalibration('codex');
    const r = run.result;
    expect(r.version).toBe('0.169.0');
    expect(outcomes(r), explain(r)).toEqual({
      'first-start': 'right', 'typed-text': 'right', idle: 'right', working: 'right', finished: 'right',
      permission: 'right', question: 'not-applicable', 'api-error': 'right', exit: 'right',
    });
    expect(r.situations.find((s) => s.situation === 'question')!.note).toMatch(/answered its question tool itself, asking nobody: "request_user_input is unavailable in Default mode"/);
    expect(r.situations.find((s) => s.situation === 'finished')!.witness).toMatchObject({ expected: 'idle', ok: true });
    expect(r.verdict).toBe('pass');
    expect(r.ms).toBeLessThan(60_000);
    expect(r.evidence).toBeNull();
    expect(run.scratchLeft).toEqual([]);
  }, 90_000);
});
