/**
 * `hand doctor --calibrate` passes for the pinned OpenCode (issue 45): its real binary against the
 * fake Anthropic API in a throwaway home (the calibration kit's fakeProviderSetup), each situation
 * it has read as what it is, and its witness plugin heard where it speaks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { explain, outcomes, runCalibration, type CalibrationRun } from './calibration-run.ts';
import { OPENCODE_PINNED } from '../../io/agent/opencode/binary.ts';
import { opencodeBinaryFor } from '../harness/real-opencode.ts';

let run: CalibrationRun | undefined;
afterAll(() => run?.cleanup());

describe(`OpenCode ${OPENCODE_PINNED} calibrates`, () => {
  it('every situation it has read right; its plugin heard', async () => {
    run = await runCalibration('opencode', { env: { HAND_OPENCODE_BIN: opencodeBinaryFor() } });
    const r = run.result;
    expect(r.version).toBe(OPENCODE_PINNED);
    const got = outcomes(r);
    expect(Object.values(got).every((o) => o === 'right'), explain(r)).toBe(true);
    expect(Object.keys(got), explain(r)).toEqual(expect.arrayContaining(['typed-text', 'idle', 'working', 'finished', 'permission', 'question', 'exit']));
    const heard = r.situations.filter((s) => s.witness);
    expect(heard.length, explain(r)).toBeGreaterThan(0);
    expect(heard.every((s) => s.witness!.ok), explain(r)).toBe(true);
    expect(r.verdict).toBe('pass');
    expect(r.evidence).toBeNull();
    expect(run.scratchLeft).toEqual([]);
  }, 120_000);
});
