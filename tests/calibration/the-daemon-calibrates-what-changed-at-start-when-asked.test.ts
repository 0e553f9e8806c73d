/**
 * `hand doctor --calibrate --auto` wired to daemon start (issue 39 item 2): with
 * HAND_CALIBRATE_AUTO=1 in its environment, a daemon that starts runs the calibration of what
 * changed — the same choice `hand doctor --calibrate --auto` makes (an agent not calibrated at its
 * installed version is run, one that is is not: codex-cli-is-read-right-in-every-situation-it-has
 * shows that choice with a real run) — and says in its log what it calibrated and skipped. Here
 * every installed agent is calibrated at its version, so the start runs none. Off by default: a
 * daemon started without the switch runs nothing and logs no calibration at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { readCalibrationRecord, recordCalibrations } from '../../io/agent/calibration-record.ts';
import type { AgentCalibration } from '../../contract/methods/calibration.ts';
import { waitFor } from '../helpers/temp.ts';

const world = useCliWorld();

function passed(agent: 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen', version: string): AgentCalibration {
  return { agent, label: agent, version, binary: `/opt/${agent}`, verdict: 'pass', situations: [], evidence: null, backend: 'tmux', sandboxed: true, sandboxNote: null, at: '2026-11-30T10:00:00.000Z', ms: 20_000 };
}

const startLine = (home: string) => readFileSync(join(home, 'daemon.log'), 'utf8').split('\n').find((l) => l.includes('"calibration at start"'));

describe('the daemon calibrates what changed at start, when asked', () => {
  it('without the switch nothing runs; with it, the start runs the --auto choice and logs it: every agent calibrated at its version, none run', async () => {
    const w = await world('calibrate-auto');
    // A first daemon without the switch makes the home and calibrates nothing.
    expect((await w.hand(['status'])).code).toBe(0);
    expect(readCalibrationRecord(w.home)).toEqual({});
    recordCalibrations(w.home, [passed('claude', '2.1.332'), passed('codex', '0.169.0'), passed('gemini', '0.61.0'), passed('opencode', '1.18.33'), passed('qwen', '0.15.10')]);
    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    expect(startLine(w.home)).toBeUndefined();
    // The next daemon starts with the switch on, and with it the calibration of what changed.
    const start = await w.hand(['status'], { env: { HAND_CALIBRATE_AUTO: '1' } });
    expect(start.code, start.stderr).toBe(0);
    const log = await waitFor(() => startLine(w.home) ?? false, { what: 'the daemon log line of the calibration at start', timeoutMs: 30_000, intervalMs: 100 });
    expect(JSON.parse(log)).toMatchObject({ calibrated: [], skipped: 6 });
    // Nothing ran: the record is the one written above, untouched.
    expect(readCalibrationRecord(w.home)).toMatchObject({ claude: { at: '2026-11-30T10:00:00.000Z' }, codex: { at: '2026-11-30T10:00:00.000Z' }, gemini: { at: '2026-11-30T10:00:00.000Z' } });
  }, 60_000);
});
