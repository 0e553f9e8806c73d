/**
 * An agent whose installed version is not the one it was last calibrated at is said on every face
 * (issue 39 item 2): `hand doctor`, the survey, the digest and the review page each say
 * "codex 0.169.0 not yet calibrated (last calibrated at 0.160.1): run hand doctor --calibrate",
 * and the same for an agent never calibrated; an agent calibrated at its installed version is not
 * mentioned there (doctor says it passed). No agent runs here: the record is what a calibration
 * of an older Codex and of the installed Claude Code left, written by the product's own writer.
 */
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { signInWithToken } from '../helpers/review-session.ts';
import { recordCalibrations } from '../../io/agent/calibration-record.ts';
import type { AgentCalibration } from '../../contract/methods/calibration.ts';

const world = useCliWorld();

function passed(agent: 'claude' | 'codex' | 'opencode' | 'qwen', version: string): AgentCalibration {
  return { agent, label: agent, version, binary: `/opt/${agent}`, verdict: 'pass', situations: [], evidence: null, backend: 'tmux', sandboxed: true, sandboxNote: null, at: '2026-11-30T10:00:00.000Z', ms: 20_000 };
}

const CODEX = 'codex 0.169.0 not yet calibrated (last calibrated at 0.160.1): run hand doctor --calibrate';
const GEMINI = 'gemini 0.61.0 not yet calibrated: run hand doctor --calibrate';

describe('a version not calibrated is said on every face', () => {
  it('doctor, survey, digest and the review page name the version and the command; the calibrated agent only doctor names, as passed', async () => {
    const w = await world('calibration-faces');
    expect((await w.hand(['status'])).code).toBe(0); // the daemon and its home exist
    // OpenCode and Qwen Code, calibrated at their versions, are said only by doctor, as Claude Code is.
    recordCalibrations(w.home, [passed('claude', '2.1.332'), passed('codex', '0.160.1'), passed('opencode', '1.18.33'), passed('qwen', '0.15.10')]);

    const doctor = await w.hand(['doctor', '--json']);
    const reading = Object.fromEntries(doctor.json.checks.filter((c: { name: string }) => c.name.endsWith(' reading')).map((c: { name: string; ok: boolean; detail: string }) => [c.name, [c.ok, c.detail]]));
    expect(reading).toEqual({
      'claude reading': [true, 'claude 2.1.332 calibrated 2026-11-30: every situation read right'],
      'codex reading': [false, CODEX],
      'gemini reading': [false, GEMINI],
      'opencode reading': [true, 'opencode 1.18.33 calibrated 2026-11-30: every situation read right'],
      'qwen reading': [true, 'qwen 0.15.10 calibrated 2026-11-30: every situation read right'],
    });
    expect(doctor.code).toBe(0); // optional checks: a notice, not a failure of the machine
    expect((await w.hand(['doctor'])).stdout).toContain(`! codex reading   ${CODEX}\n    fix: hand doctor --calibrate --agent codex`);

    const survey = await w.hand(['survey', '--json']);
    expect(survey.json.setup.calibration.map((c: { agent: string; standing: string }) => `${c.agent} ${c.standing}`)).toEqual(['claude calibrated', 'codex not-calibrated', 'gemini not-calibrated', 'opencode calibrated', 'qwen calibrated']);
    const surveyText = (await w.hand(['survey'])).stdout;
    expect(surveyText).toContain(`CALIBRATION: ${CODEX}`);
    expect(surveyText).toContain(`CALIBRATION: ${GEMINI}`);
    expect(surveyText).not.toMatch(/CALIBRATION: claude/);

    const digest = (await w.hand(['digest'])).stdout;
    expect(digest).toContain(`CALIBRATION: ${CODEX}`);
    expect(digest).toContain(`CALIBRATION: ${GEMINI}`);
    expect(digest).not.toMatch(/CALIBRATION: claude/);

    const review = await w.hand(['review', '--json']);
    const url = new URL(review.json.url);
    const session = await signInWithToken(url.origin, url.searchParams.get('token')!);
    const page = await (await fetch(`${url.origin}/`, { headers: { cookie: session.cookie } })).text();
    expect(page).toContain(`<section class="notices" aria-label="Notices"><ul><li>${CODEX}</li><li>${GEMINI}</li></ul></section>`);
  });
});
