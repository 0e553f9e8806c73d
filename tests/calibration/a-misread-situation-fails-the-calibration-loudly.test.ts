/**
 * A calibration fails loudly when the screen reader misreads a situation (issue 39): handed a
 * reader that reads a running Codex turn as an idle, empty box (the calibration's fault
 * injection, KH_CALIBRATE_MISREAD), `hand doctor --calibrate` exits 1, names the situation and
 * what was read, and saves the screens (ANSI and plain) where a person can attach them to a bug
 * report — screens that the agent's own reader, asked again, reads right. From then on each face
 * says so: doctor, the survey, the digest, the review page; a dispatch of that agent warns with
 * the misread situation, and `--strict` refuses it before anything is created.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { formatCalibration } from '../../cli/commands/calibration-text.ts';
import { signInWithToken } from '../helpers/review-session.ts';
import type { AgentCalibration, CalibrateResult } from '../../contract/methods/calibration.ts';
import { explain, outcomes, unrightScreens } from './calibration-run.ts';

const world = useCliWorld({ env: { KH_CALIBRATE_MISREAD: 'codex:working=idle' } });

describe('a misread situation fails the calibration loudly', () => {
  it('exit 1, the situation named with what was read, the screens saved; then every face and dispatch say it', async () => {
    const w = await world('calibrate-misread');
    const run = await w.hand(['doctor', '--calibrate', '--agent', 'codex', '--backend', 'pty', '--json'], { timeoutMs: 100_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const result = run.json as CalibrateResult;
    expect(result.ok).toBe(false);
    const codex = result.agents[0] as AgentCalibration;
    expect(outcomes(codex), explain(codex)).toEqual({
      'first-start': 'right', 'typed-text': 'right', idle: 'right', working: 'wrong', finished: 'right',
      permission: 'right', question: 'not-applicable', 'api-error': 'right', exit: 'right',
    });
    const working = codex.situations.find((s) => s.situation === 'working')!;
    expect(working).toMatchObject({ expected: 'working', read: 'idle, box empty' });
    expect(working.note).toContain('the screen reader said idle, box empty where the screen shows working');
    expect(codex.verdict).toBe('fail');
    // A failure's message can carry the screen of what went wrong, and only that one.
    const shown = unrightScreens(codex);
    expect(shown).toMatch(/^\n--- \d+-working\.txt\n.*OpenAI Codex/);
    expect(shown.match(/^--- /gm)).toHaveLength(1);

    // The folder to attach: every situation's screen, plain and ANSI, the result and a README.
    expect(codex.evidence!.startsWith(join(w.home, 'calibration', 'codex-0.169.0-'))).toBe(true);
    const files = readdirSync(codex.evidence!);
    expect(files).toEqual(expect.arrayContaining(['04-working.txt', '04-working.ansi.txt', 'README.txt', 'result.json']));
    expect(readFileSync(join(codex.evidence!, 'README.txt'), 'utf8')).toContain('04-working.txt / .ansi.txt  working: wrong, read idle, box empty');
    expect(JSON.parse(readFileSync(join(codex.evidence!, 'result.json'), 'utf8'))).toMatchObject({ agent: 'codex', version: '0.169.0', verdict: 'fail' });
    // The screen shows a running turn: Codex's own reader, asked again through hand, says so.
    const inspect = await w.hand(['screen', 'inspect', join(codex.evidence!, '04-working.ansi.txt'), '--agent', 'codex@0.169.0', '--json']);
    expect(inspect.json).toMatchObject({ state: 'working' });

    // In words: the situation, WRONG, what was read, the folder.
    const text = formatCalibration(result);
    expect(text).toMatch(/Codex CLI 0\.169\.0 — FAIL/);
    expect(text).toMatch(/ {2}working {12}WRONG {8}expected working; read idle, box empty/);
    expect(text).toContain(`to attach to a bug report: ${codex.evidence}`);
    expect(text).toContain('misread: codex 0.169.0 at working');

    // Recorded: doctor, the survey, the digest and the page say it from now on.
    const line = /codex 0\.169\.0 failed calibration \d{4}-\d\d-\d\d at working \(read idle, box empty\): its workers may be misread there/;
    const doctor = await w.hand(['doctor', '--json']);
    expect(doctor.json.checks.find((c: { name: string }) => c.name === 'codex reading')).toMatchObject({ ok: false, detail: expect.stringMatching(line), fix: 'hand doctor --calibrate --agent codex' });
    const survey = await w.hand(['survey']);
    expect(survey.stdout).toMatch(new RegExp(`CALIBRATION: ${line.source}`));
    const digest = await w.hand(['digest']);
    expect(digest.stdout).toMatch(new RegExp(`CALIBRATION: ${line.source}`));
    const review = await w.hand(['review', '--json']);
    const origin = new URL(review.json.url).origin;
    const session = await signInWithToken(origin, new URL(review.json.url).searchParams.get('token')!);
    const page = await (await fetch(`${origin}/`, { headers: { cookie: session.cookie } })).text();
    expect(page).toMatch(/<section class="notices" aria-label="Notices"><ul>(?:<li>[^<]*<\/li>)*<li>codex 0\.169\.0 failed calibration [^<]* at working \(read idle, box empty\)/);

    // Dispatch warns with the misread situation (held at its brief gate: nothing starts); --strict refuses first.
    expect((await w.hand(['annex', w.repo, '--name', 'shop', '--permissions', 'ask'])).code).toBe(0);
    const warned = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'a task'), '--agent', 'codex', '--json']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.json.warnings).toContainEqual(expect.stringMatching(line));
    expect(warned.json.calibration).toMatch(line);
    expect(warned.stderr).toMatch(/hand: warning: codex 0\.169\.0 failed calibration .* at working \(read idle, box empty\).*dispatched anyway; --strict refuses/);
    const strict = await w.hand(['dispatch', 'w2', '--repo', w.repo, '--brief', w.brief('w2', 'a task'), '--agent', 'codex', '--strict', '--json']);
    expect(strict.code).not.toBe(0);
    expect(strict.json.error).toMatchObject({ code: 'calibration-failed', agent: 'codex', version: '0.169.0' });
    expect(strict.json.error.message).toMatch(/at working \(read idle, box empty\).*--strict refuses an agent kingshand misreads; nothing was created/);
    expect(existsSync(join(w.home, 'workers', 'w2'))).toBe(false);
  }, 150_000);
});
