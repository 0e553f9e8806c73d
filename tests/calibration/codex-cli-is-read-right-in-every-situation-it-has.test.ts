/**
 * `hand doctor --calibrate --auto` passes for the pinned Codex CLI (issue 39): with Claude Code,
 * Gemini CLI, OpenCode and Qwen Code recorded as calibrated at their installed versions, `--auto` runs only Codex CLI,
 * never calibrated here; every situation it has is read as what it is, its notify witness says
 * idle at a finished turn, and the question menu is said not to apply in Codex CLI's own words —
 * outside Plan mode, the mode every worker runs in, its question tool answers itself and no menu
 * is drawn — never silently skipped. Recorded, it is what `--auto` skips next time.
 * (One calibration serves both: what `--auto` chooses, and Codex CLI read right.)
 */
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { readCalibrationRecord, recordCalibrations } from '../../io/agent/calibration-record.ts';
import type { AgentCalibration, CalibrateResult } from '../../contract/methods/calibration.ts';
import { explain, outcomes, situationOf } from './calibration-run.ts';

const world = useCliWorld();

function passed(agent: 'claude' | 'gemini' | 'opencode' | 'qwen', version: string): AgentCalibration {
  return { agent, label: agent, version, binary: `/opt/${agent}`, verdict: 'pass', situations: [], evidence: null, backend: 'tmux', sandboxed: true, sandboxNote: null, at: '2026-11-30T10:00:00.000Z', ms: 20_000 };
}

describe('Codex CLI 0.169.0 calibrates', () => {
  it('--auto runs Codex CLI alone: every situation right but the question menu, which it does not draw outside Plan mode; the witness heard at the finished turn; recorded, then skipped', async () => {
    const w = await world('calibrate-codex');
    expect((await w.hand(['status'])).code).toBe(0);
    recordCalibrations(w.home, [passed('claude', '2.1.332'), passed('gemini', '0.61.0'), passed('opencode', '1.18.33'), passed('qwen', '0.15.10')]);
    const run = await w.hand(['doctor', '--calibrate', '--auto', '--json'], { timeoutMs: 100_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = run.json as CalibrateResult;
    expect(result.agents.map((a) => a.agent)).toEqual(['codex']);
    expect(result.skipped.map((s) => s.agent).sort()).toEqual(['claude', 'gemini', 'mock', 'opencode', 'qwen']);
    expect(result.skipped.find((s) => s.agent === 'gemini')!.reason).toBe('gemini 0.61.0 calibrated 2026-11-30: every situation read right (--auto runs only what changed)');

    const r = result.agents[0] as AgentCalibration;
    expect(r.version).toBe('0.169.0');
    expect(outcomes(r), explain(r)).toEqual({
      'first-start': 'right', 'typed-text': 'right', idle: 'right', working: 'right', finished: 'right',
      permission: 'right', question: 'not-applicable', 'api-error': 'right', exit: 'right',
    });
    expect(situationOf(r, 'question').note).toMatch(/answered its question tool itself, asking nobody: "request_user_input is unavailable in Default mode"/);
    expect(situationOf(r, 'finished').witness).toMatchObject({ expected: 'idle', ok: true });
    expect(r.verdict).toBe('pass');
    expect(r.ms).toBeLessThan(60_000);
    expect(r.evidence).toBeNull();

    // Recorded: the next --auto finds nothing changed and runs nothing.
    expect(readCalibrationRecord(w.home).codex).toMatchObject({ version: '0.169.0', verdict: 'pass', wrong: [] });
    const again = await w.hand(['doctor', '--calibrate', '--auto', '--json'], { timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.agents).toEqual([]);
    expect(again.json.skipped.find((s: { agent: string }) => s.agent === 'codex').reason).toBe(`codex 0.169.0 calibrated ${r.at.slice(0, 10)}: every situation read right (--auto runs only what changed)`);
  }, 120_000);
});
