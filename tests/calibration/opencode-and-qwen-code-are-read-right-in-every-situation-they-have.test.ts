/**
 * `hand doctor --calibrate` passes for the pinned OpenCode and Qwen Code (issue 45): each real
 * binary against the fake Anthropic API in a throwaway home (its calibration kit's setup:
 * fakeProviderSetup, fakeQwenSetup), each situation it has read as what it is, and its witness
 * (OpenCode's plugin, Qwen Code's hooks) heard where it speaks.
 */
import { describe, expect, it } from 'vitest';
import { explain, outcomes, useCalibrationRuns } from './calibration-run.ts';
import { OPENCODE_PINNED } from '../../io/agent/opencode/binary.ts';
import { QWEN_PINNED } from '../../io/agent/qwen/binary.ts';
import { opencodeBinaryFor } from '../harness/real-opencode.ts';
import { qwenBinaryFor } from '../harness/real-qwen.ts';

const calibrate = useCalibrationRuns();

describe.each([
  { agent: 'opencode', label: 'OpenCode', pinned: OPENCODE_PINNED, witness: 'plugin', env: () => ({ HAND_OPENCODE_BIN: opencodeBinaryFor() }) },
  { agent: 'qwen', label: 'Qwen Code', pinned: QWEN_PINNED, witness: 'hooks', env: () => ({ HAND_QWEN_BIN: qwenBinaryFor() }) },
])('$label $pinned calibrates', (a) => {
  it(`every situation it has read right; its ${a.witness} heard`, async () => {
    const run = await calibrate(a.agent, { env: a.env() });
    const r = run.result;
    expect(r.version).toBe(a.pinned);
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
