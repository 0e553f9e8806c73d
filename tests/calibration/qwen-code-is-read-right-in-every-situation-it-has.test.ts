/**
 * `hand doctor --calibrate` passes for the pinned Qwen Code (issue 45): its real binary against the
 * fake Anthropic API in a throwaway home (the calibration kit's fakeQwenSetup), each situation it
 * has read as what it is, and its hooks heard where they speak.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { explain, outcomes, runCalibration, type CalibrationRun } from './calibration-run.ts';
import { QWEN_PINNED } from '../../io/agent/qwen/binary.ts';
import { qwenBinaryFor } from '../harness/real-qwen.ts';

let run: CalibrationRun | undefined;
afterAll(() => run?.cleanup());

describe(`Qwen Code ${QWEN_PINNED} calibrates`, () => {
  it('every situation it has read right; its hooks heard', async () => {
    run = await runCalibration('qwen', { env: { HAND_QWEN_BIN: qwenBinaryFor() } });
    const r = run.result;
    expect(r.version).toBe(QWEN_PINNED);
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
