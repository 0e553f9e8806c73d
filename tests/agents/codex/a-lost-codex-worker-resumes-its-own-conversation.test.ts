/**
 * Rule (issue 41 items 1–3), Codex CLI: a Codex 0.169.0 worker killed mid-task with its terminal
 * server and the daemon is listed lost with its conversation resumable, and `hand resume` brings it
 * back with `codex resume <session id>`: the fake Responses API's next request carries the earlier
 * items of that conversation (the first prompt, the command it ran and its output) and the one
 * line kingshand typed; the worker then finishes its task (writes its report). Item 4: its tokens,
 * read from its rollout, equal what the fake served its conversation.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { writeFileCommand } from '../../../io/fake-model/codex.ts';
import { killDaemonAndTmux } from '../../helpers/processes.ts';
import { until, waitForEvent } from '../../helpers/temp.ts';
import { useCodexWorld } from './codex-world.ts';
import { RESUME_LINE } from '../../../daemon/sessions/resume-line.ts';
import type { CodexRequestRecord } from '../../../io/fake-model/codex.ts';
import { FAKE_OPENAI_KEY, FAKE_OPENAI_KEY_ENV } from '../../harness/codex-env.ts';

// Each reply its own usage, so a count that matches is no coincidence.
const cx = useCodexWorld('codex-resume', { api: { usageOf: (seq) => ({ input: 100 + seq, cached: 2 * seq, output: 10 + (seq % 3) }) }, daemonProcess: true });

function turn(after: number, accept: (r: CodexRequestRecord) => boolean, what: string): Promise<CodexRequestRecord> {
  const take = (r: CodexRequestRecord) => r.seq > after && r.summary !== undefined && !r.summary.side && accept(r);
  const seen = cx.fake.received.find(take);
  return seen ? Promise.resolve(seen) : waitForEvent((l) => cx.fake.onRequest(l), take, { what: `the fake Responses API to receive ${what}`, timeoutMs: 60_000 });
}

it('killed with its tmux server and the daemon mid-task, it is lost and resumable; resumed, the model gets the earlier conversation and the one line, and the worker finishes', async () => {
  const repo = await cx.w.annex('resumed', 'off');
  const id = 'cx-resume';
  // A first step that runs (its output goes back to the model), then the model hangs mid-task.
  cx.fake.queue([{ kind: 'shell', cmd: 'echo first-step-done', text: 'Starting with the first step.' }, { kind: 'hang', text: 'Thinking about the next step.' }]);
  await cx.w.dispatch(id, repo, 'Do the task in two steps.');
  const first = await turn(0, () => true, 'the first turn');
  const hung = await turn(first.seq, (r) => r.reply?.kind === 'hang', 'the hung request after the first step');
  expect(hung.summary!.toolOutputs.map((o) => o.callId)).toContain(first.callId);

  const running = await until('the worker\'s session to be recorded', async () => (await cx.w.hand(['status', id, '--json'])).json[0], (s) => typeof s?.session === 'string', 40_000, 200);
  expect(running.session).toMatch(/^[0-9a-f-]{36}$/);

  await killDaemonAndTmux(cx.w);

  const lost = (await cx.w.hand(['status', id, '--json'])).json[0];
  expect(lost).toMatchObject({ stage: 'lost', live: false, resume: { can: true, session: running.session } });

  const report = cx.w.reportPathOf(id);
  const mark = cx.fake.received.at(-1)?.seq ?? 0;
  cx.fake.queue([{ kind: 'shell', cmd: writeFileCommand(report, '# Report\n\nStatus: done after the restart.'), text: 'Carrying on.' }]);
  // The provider's key went with the daemon's memory: given again, as at dispatch.
  const r = await cx.w.hand(['resume', id, '--env', `${FAKE_OPENAI_KEY_ENV}=${FAKE_OPENAI_KEY}`, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.json).toMatchObject({ resumed: [{ id, session: running.session, typed: RESUME_LINE }], refused: [] });

  const next = await turn(mark, () => true, 'the first request of the resumed conversation').catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await cx.w.explain(id)}`);
  });
  const body = next.body ?? '';
  // The earlier items of that conversation: the first prompt, the command it ran, its output.
  expect(body).toContain('Read the brief at');
  expect(body).toContain(first.callId!);
  expect(body).toContain('first-step-done');
  // Nothing typed beyond the one line.
  expect(next.summary!.lastUserText).toBe(RESUME_LINE);

  const settled = await cx.w.wait(id, 'settled', '60s');
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  expect(readFileSync(report, 'utf8')).toContain('done after the restart');
  expect((await cx.w.hand(['status', id, '--json'])).json[0]).toMatchObject({ live: true, session: running.session, reportExists: true });

  // Item 4: the Responses API counts cached tokens inside input; the cost keeps them apart.
  const served = cx.fake.turns().filter((x) => x.served).map((x) => x.served!);
  const want = { input: served.reduce((n, u) => n + u.input - u.cached, 0), cacheRead: served.reduce((n, u) => n + u.cached, 0), output: served.reduce((n, u) => n + u.output, 0) };
  const row = await until('the cost of every served reply to be read', async () => (await cx.w.hand(['status', id, '--json'])).json[0], (s) => s.cost?.output === want.output, 30_000, 200);
  expect(row.cost).toMatchObject({ ...want, cacheWrite: 0 });
  // gpt-fake is in no price table: its tokens are shown, its cost unknown, never a guess.
  expect(row.cost).toMatchObject({ usd: null, unpriced: ['gpt-fake'] });
}, 150_000);
