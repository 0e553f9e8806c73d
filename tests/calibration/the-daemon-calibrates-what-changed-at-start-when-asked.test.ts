/**
 * `hand doctor --calibrate --auto` wired to daemon start (issue 39 item 2): with
 * HAND_CALIBRATE_AUTO=1 in its environment, a daemon that starts calibrates each installed agent
 * whose version is not the one recorded — here Codex CLI, never calibrated — and leaves the ones
 * calibrated at their installed version alone; `hand doctor --calibrate --auto` afterwards finds
 * nothing changed and runs nothing. Off by default: the other calibration tests' daemons start
 * without it and calibrate nothing by themselves.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { readCalibrationRecord, recordCalibrations } from '../../io/agent/calibration-record.ts';
import type { AgentCalibration } from '../../contract/methods/calibration.ts';
import { waitFor } from '../helpers/temp.ts';

const world = useCliWorld();

function passed(agent: 'claude' | 'gemini', version: string): AgentCalibration {
  return { agent, label: agent, version, binary: `/opt/${agent}`, verdict: 'pass', situations: [], evidence: null, backend: 'tmux', sandboxed: true, sandboxNote: null, at: '2026-11-30T10:00:00.000Z', ms: 20_000 };
}

describe('the daemon calibrates what changed at start, when asked', () => {
  it('Codex, never calibrated, is calibrated and recorded; Claude Code and Gemini CLI, calibrated at their versions, are not run again', async () => {
    const w = await world('calibrate-auto');
    // A first daemon without the switch makes the home and calibrates nothing; then the record.
    expect((await w.hand(['status'])).code).toBe(0);
    expect(readCalibrationRecord(w.home)).toEqual({});
    recordCalibrations(w.home, [passed('claude', '2.1.332'), passed('gemini', '0.61.0')]);
    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    // The next daemon starts with the switch on, and with it the calibration of what changed.
    const start = await w.hand(['status'], { env: { HAND_CALIBRATE_AUTO: '1' } });
    expect(start.code, start.stderr).toBe(0);

    const record = await waitFor(() => readCalibrationRecord(w.home).codex ?? false, { what: 'the calibration of codex at daemon start to be recorded in calibration.json', timeoutMs: 90_000, intervalMs: 250 });
    expect(record).toMatchObject({ version: '0.169.0', verdict: 'pass', wrong: [] });
    expect(readCalibrationRecord(w.home)).toMatchObject({ claude: { at: '2026-11-30T10:00:00.000Z' }, gemini: { at: '2026-11-30T10:00:00.000Z' } });
    const log = await waitFor(() => readFileSync(join(w.home, 'daemon.log'), 'utf8').split('\n').find((l) => l.includes('"calibration at start"')) ?? false, { what: 'the daemon log line of the calibration at start', timeoutMs: 10_000 });
    expect(JSON.parse(log)).toMatchObject({ calibrated: ['codex 0.169.0 pass'], skipped: 3 });

    const again = await w.hand(['doctor', '--calibrate', '--auto', '--json'], { timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.agents).toEqual([]);
    expect(again.json.skipped.map((s: { agent: string }) => s.agent).sort()).toEqual(['claude', 'codex', 'gemini', 'mock']);
    expect(again.json.skipped.find((s: { agent: string }) => s.agent === 'codex').reason).toBe('codex 0.169.0 calibrated ' + record.at.slice(0, 10) + ': every situation read right (--auto runs only what changed)');
  }, 120_000);
});
