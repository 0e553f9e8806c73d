/**
 * `hand doctor --calibrate` passes for the pinned Claude Code (issue 39): started as a worker
 * starts (seed, launch argv, kingshand's sandbox where it can be built), against the fake
 * Messages API, every situation is read as what it is by the screen reader, and the hook witness
 * says working, idle, needs-input, failed and ended where Claude Code's hooks speak — within the
 * minute, leaving nothing behind and no evidence folder (nothing to report).
 */
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../io/sandbox/availability.ts';
import { CALIBRATION_DAEMON_ENV, expectAFullPass, situationOf, useCalibrationRuns } from './calibration-run.ts';

const calibrate = useCalibrationRuns();

describe('Claude Code 2.1.332 calibrates', () => {
  it('every situation right, the witness heard in each it speaks in, under a minute, nothing left behind', async () => {
    const r = expectAFullPass(await calibrate('claude'), { pinned: '2.1.332', heard: { working: true, finished: true, permission: true, 'api-error': true, exit: true } });
    expect(situationOf(r, 'typed-text').read).toBe('idle, box holds "calibration draft 42"');
    expect(situationOf(r, 'api-error').read).toMatch(/^idle, box empty, error "API Error: 400/);
    expect(r.sandboxed).toBe(probeSandbox(CALIBRATION_DAEMON_ENV).ok);
  }, 90_000);
});
