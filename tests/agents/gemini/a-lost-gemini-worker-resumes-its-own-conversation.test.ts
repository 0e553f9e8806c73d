/**
 * Rule (issue 41 items 1–3), Gemini CLI: 0.61.0 resumes a session by its id (`--resume <id>`), so
 * a Gemini worker killed mid-task with its terminal server and the daemon is listed lost with its
 * conversation resumable (its chat file proved: its own, whole, run in its worktree — Gemini
 * records the directory's hash), and `hand resume` brings it back: the fake Gemini API's next
 * request carries the earlier turns of that conversation (the brief it read) and the one line
 * kingshand typed, and the worker finishes its task (writes its report). Its tokens are what the
 * fake served its conversation.
 *
 * The line waits for the resumed conversation: Gemini CLI draws its box before it has loaded its
 * configuration and loads the conversation after that, dropping a line typed before (this test
 * failed 3 of 9 full runs so, when the start was slow). Here the start is held open on purpose —
 * a GEMINI.md that is a named pipe, which Gemini reads while it loads and which gives nothing
 * until this test writes to it — and while it is held, with the box drawn and read idle and
 * empty, past the time the first line would have gone, nothing is typed.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { STARTUP_SETTLE_MS } from '../../../machines/worker.constants.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini } from '../../../io/fake-model/gemini.ts';
import { killDaemonAndTmux } from '../../helpers/processes.ts';
import { until } from '../../helpers/temp.ts';
import { makeGeminiWorld, watermark, type GeminiWorld } from './gemini-world.ts';
import { RESUME_LINE } from '../../../daemon/sessions/resume-line.ts';
import { releaseHeldStart } from '../../helpers/held-start.ts';

let fake: FakeGemini;
let w: GeminiWorld;
beforeAll(async () => {
  fake = await startFakeGemini();
  w = await makeGeminiWorld('gemini-resume', fake, 'off', { daemonProcess: true });
});
let pipe: string | undefined;
afterAll(async () => {
  // A test that failed while the start was held lets it go before the workers are stopped.
  if (pipe) releaseHeldStart(pipe);
  await w?.cleanup();
  await fake?.close();
});

it('killed with its tmux server and the daemon mid-task, it is lost and resumable; resumed by id, the model gets the earlier conversation and the one line, and the worker finishes', async () => {
  const id = 'gm-resume';
  const since = watermark(fake);
  await w.dispatch(id, 'MODE:hang');
  const approved = await w.hand(['approve', id, '--json']);
  expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  const read = await w.request(id, since, (r) => r.kind === 'main' && r.reply?.kind === 'call' && r.reply.name === 'read_file', 'the brief read');
  await w.request(id, read.seq, (r) => r.kind === 'main' && r.reply?.kind === 'hang', 'the hung reply mid-task');

  const running = await until('the worker\'s session to be recorded', () => w.status(id), (s) => typeof s.session === 'string', 40_000, 200);

  await killDaemonAndTmux(w);

  const lost = await w.status(id);
  expect(lost).toMatchObject({ stage: 'lost', live: false, resume: { can: true, session: running.session } });

  const report = w.reportPathOf(id);
  const mark = watermark(fake);
  fake.queue([{ kind: 'call', name: 'write_file', text: 'Carrying on.', args: { file_path: report, content: '# Report\n\nStatus: done after the restart.\n' } }]);
  pipe = join(w.worktreeOf(id), 'GEMINI.md');
  await execa('mkfifo', [pipe]);
  const r = await w.hand(['resume', id, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.json).toMatchObject({ resumed: [{ id, session: running.session, typed: RESUME_LINE }], refused: [] });

  // Held at its start: the box drawn, read idle and empty, the transcript not drawn yet.
  await until('the resumed worker\'s box to be read while its start is held', () => w.status(id), (s) => s.stage === 'starting.settling' && s.state === 'idle' && s.promptBox === '', 40_000, 100);
  // Past the time the line would have gone on a start that had finished (STARTUP_SETTLE_MS): nothing typed.
  await new Promise((resolve) => setTimeout(resolve, 3 * STARTUP_SETTLE_MS));
  expect(await w.status(id)).toMatchObject({ stage: 'starting.settling', promptBox: '' });
  expect(fake.received.filter((x) => x.seq > mark && x.kind === 'main')).toEqual([]);
  releaseHeldStart(pipe);
  expect(lstatSync(pipe).isFIFO(), 'the start let go: a plain file in the pipe\'s place').toBe(false);

  const next = await w.request(id, mark, (x) => x.kind === 'main', 'the first request of the resumed conversation');
  // The earlier turns: the first prompt and the brief it read (its call and the file's words).
  expect(next.body).toContain('Read the brief at');
  expect(next.body).toContain('read_file');
  expect(next.body).toContain('MODE:hang');
  expect(next.summary!.lastPromptText).toBe(RESUME_LINE);

  const settled = await w.wait(id, 'settled', '60s');
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  expect(readFileSync(report, 'utf8')).toContain('done after the restart');
  expect(await w.status(id)).toMatchObject({ live: true, session: running.session, reportExists: true });

  // Item 4: its tokens, read from its chat record, are what the fake served its conversation
  // (the model router's side requests are no part of the chat); no Gemini model is priced.
  const served = fake.received.filter((x) => x.kind === 'main' && x.served).map((x) => x.served!);
  const want = { input: served.reduce((n, u) => n + u.input, 0), output: served.reduce((n, u) => n + u.output, 0) };
  const row = await until('the cost of every served reply to be read', () => w.status(id), (s) => s.cost?.messages === served.length, 30_000, 200);
  expect(row.cost).toMatchObject({ ...want, cacheRead: 0, cacheWrite: 0, usd: null });
  expect(row.cost.unpriced).toHaveLength(1);
}, 150_000);
