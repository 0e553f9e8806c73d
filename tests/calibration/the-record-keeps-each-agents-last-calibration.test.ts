/**
 * calibration.json keeps the version each agent was last calibrated at (issue 39 item 2): each
 * calibration replaces its own agent's entry and no other, the file is the daemon's own (0600,
 * written whole); a file that is damaged, too large or a link reads as no calibration at all —
 * never as a pass — and a run with no version is not recorded. Where an agent stands is said in
 * one line per case, the version and the command in it.
 */
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationRecordPath, readCalibrationRecord, recordCalibrations } from '../../io/agent/calibration-record.ts';
import { standingOf } from '../../io/agent/calibration-standing.ts';
import type { AgentCalibration, SituationResult } from '../../contract/methods/calibration.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();

function calibration(agent: 'claude' | 'codex' | 'gemini', version: string | null, wrong: SituationResult[] = []): AgentCalibration {
  return {
    agent, label: agent, version, binary: `/opt/${agent}`, verdict: wrong.length ? 'fail' : 'pass', situations: wrong, evidence: wrong.length ? '/state/calibration/x' : null,
    backend: 'tmux', sandboxed: true, sandboxNote: null, at: '2026-12-06T10:00:00.000Z', ms: 1,
  };
}

const misread: SituationResult = { situation: 'api-error', outcome: 'wrong', expected: "idle, box empty, the turn's error named", read: 'idle, box empty', witness: null, note: null, ms: 1 };

describe('the record keeps each agent\'s last calibration', () => {
  it('each calibration replaces its own entry; the file is 0600 and read back as written', () => {
    const home = tempDir('calibration-record');
    recordCalibrations(home, [calibration('claude', '2.1.332'), calibration('codex', '0.160.1')]);
    recordCalibrations(home, [calibration('codex', '0.169.0'), calibration('gemini', '0.61.0', [misread])]);
    expect(lstatSync(calibrationRecordPath(home)).mode & 0o777).toBe(0o600);
    expect(readCalibrationRecord(home)).toEqual({
      claude: { version: '2.1.332', at: '2026-12-06T10:00:00.000Z', verdict: 'pass', wrong: [], evidence: null },
      codex: { version: '0.169.0', at: '2026-12-06T10:00:00.000Z', verdict: 'pass', wrong: [], evidence: null },
      gemini: { version: '0.61.0', at: '2026-12-06T10:00:00.000Z', verdict: 'fail', wrong: [{ situation: 'api-error', read: 'idle, box empty', outcome: 'wrong' }], evidence: '/state/calibration/x' },
    });
    // A run whose binary said no version has nothing to be recorded against.
    recordCalibrations(home, [calibration('claude', null)]);
    expect(readCalibrationRecord(home).claude?.version).toBe('2.1.332');
  });

  it('a damaged, oversized or linked file is no calibration, never a pass', () => {
    const home = tempDir('calibration-record-bad');
    const path = calibrationRecordPath(home);
    writeFileSync(path, '{"agents": {"codex": {"version": "0.169.0", "at": "x", "verdict": "pass", "wrong": [');
    expect(readCalibrationRecord(home)).toEqual({});
    writeFileSync(path, JSON.stringify({ agents: { codex: { version: '0.169.0', at: 'x', verdict: 'pass', wrong: [] } }, pad: 'x'.repeat(300 * 1024) }));
    expect(readCalibrationRecord(home)).toEqual({});
    writeFileSync(path, JSON.stringify({ agents: { codex: { version: '0.169.0', at: 'x', verdict: 'maybe', wrong: [] } } }));
    expect(readCalibrationRecord(home)).toEqual({});
    // A link a process planted at the name is not followed to a record somewhere else.
    const elsewhere = join(home, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ agents: { codex: { version: '0.169.0', at: 'x', verdict: 'pass', wrong: [] } } }));
    const linked = tempDir('calibration-record-link');
    symlinkSync(elsewhere, calibrationRecordPath(linked));
    expect(readCalibrationRecord(linked)).toEqual({});
    expect(standingOf('codex', '0.169.0', readCalibrationRecord(linked).codex ?? null).standing).toBe('not-calibrated');
    // Writing replaces the link with a file of its own; the file it pointed at is untouched.
    recordCalibrations(linked, [calibration('codex', '0.169.0')]);
    expect(lstatSync(calibrationRecordPath(linked)).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(elsewhere, 'utf8')).agents.codex.at).toBe('x');
  });

  it('the standing in one line: not calibrated (and at which version it was), calibrated, failed where, unknown version', () => {
    const entry = (version: string, wrong = false) => ({ version, at: '2026-12-06T10:00:00.000Z', verdict: wrong ? ('fail' as const) : ('pass' as const), wrong: wrong ? [{ situation: 'working' as const, read: 'idle, box empty', outcome: 'wrong' as const }] : [], evidence: wrong ? '/s/calibration/codex' : null });
    expect(standingOf('codex', '0.172.0', null)).toMatchObject({ standing: 'not-calibrated', line: 'codex 0.172.0 not yet calibrated: run hand doctor --calibrate' });
    expect(standingOf('codex', '0.172.0', entry('0.169.0'))).toMatchObject({ standing: 'not-calibrated', line: 'codex 0.172.0 not yet calibrated (last calibrated at 0.169.0): run hand doctor --calibrate' });
    expect(standingOf('codex', '0.169.0', entry('0.169.0'))).toMatchObject({ standing: 'calibrated', line: 'codex 0.169.0 calibrated 2026-12-06: every situation read right' });
    expect(standingOf('codex', '0.169.0', entry('0.169.0', true))).toMatchObject({
      standing: 'failed',
      line: 'codex 0.169.0 failed calibration 2026-12-06 at working (read idle, box empty): its workers may be misread there; screens in /s/calibration/codex',
    });
    expect(standingOf('codex', null, entry('0.169.0')).standing).toBe('unknown-version');
  });
});
