/**
 * Rule (issue 41 items 1–3): a Claude Code worker killed mid-task with its terminal server and the
 * daemon (what a reboot does) is listed lost — its conversation can be resumed — and `hand resume
 * --all-lost` brings it back into that same conversation: the real Claude Code 2.1.332, resumed by
 * its session id, sends the fake API the earlier messages of that conversation with the one line
 * kingshand typed, and nothing else typed; the worker then finishes its task (writes its report).
 * The session was recorded while it ran, proved by its file in the worker's own config directory.
 * A session file cut short is refused, saying so and offering the fresh relaunch. Item 4: the
 * worker's tokens, read from its session record, equal what the fake API served its conversation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { toolUseIdOf, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { killDaemonAndTmux } from '../helpers/processes.ts';
import { until } from '../helpers/temp.ts';
import { type E2eWorld, useE2eWorld, watermark } from './e2e-world.ts';
import { RESUME_LINE } from '../../daemon/sessions/resume-line.ts';
import { costText } from '../../contract/cost-words.ts';
import { signInWithToken } from '../helpers/review-session.ts';
import { basename } from 'node:path';

let fake: FakeAnthropic;
let w: E2eWorld;
// Each reply its own usage, so a count that matches is no coincidence.
useE2eWorld('e2e-resume', { daemonProcess: true }, { usageOf: (seq) => ({ input: 40 + seq, output: 10 + (seq % 4), cacheRead: 3 * seq, cacheWrite: seq % 2 ? 5 : 0 }) }, (made) => void ({ fake, w } = made));

it('killed with its tmux server and the daemon mid-task, it is lost and resumable; resumed, the model gets the earlier conversation and the one line, and the worker finishes', async () => {
  const id = 'resumer';
  const project = basename(w.repo);
  const since = watermark(fake);
  // The brief is read with the Read tool, then the model hangs mid-turn: the task is under way.
  await w.dispatch(id, 'tmux', 'MODE:hang');
  const briefRead = await w.request(id, since, (r) => r.reply?.kind === 'tool_use' && r.reply.tag === 'brief', 'the brief read by the Read tool');
  await w.request(id, briefRead.seq, (r) => r.reply?.kind === 'hang', 'the hung reply mid-task');

  // Item 1: the session is recorded while it runs, and it is the one in the worker's own directory.
  const running = await until('the worker\'s session to be recorded', () => w.status(id), (s) => typeof s.session === 'string', 30_000, 200);
  const sessionFile = join(w.home, 'agents', id, 'claude', 'projects', w.worktreeOf(id).replace(/[^A-Za-z0-9]/g, '-'), `${running.session}.jsonl`);
  expect(readFileSync(sessionFile, 'utf8')).toContain(`"cwd":"${w.worktreeOf(id)}"`);

  // What a reboot does: the daemon and the terminal server gone at once, the agent with them.
  await killDaemonAndTmux(w);

  // Item 3: the next command starts a daemon that finds it lost, its conversation resumable.
  const lost = await w.status(id);
  expect(lost).toMatchObject({ stage: 'lost', live: false, resume: { can: true, session: running.session } });
  expect(lost.problem).toContain('no longer runs');
  const line = `${id}: lost — its conversation can be resumed (hand resume ${id})`;
  const text = await w.hand(['status']);
  expect(text.stdout).toContain(line);
  // The same line in the survey's and the digest's "needs you", and on the page.
  const survey = await w.hand(['survey', '--json']);
  expect(survey.json.needsYou).toContainEqual({ id, kind: 'resumable', text: line });
  expect((await w.hand(['digest'])).stdout).toContain(`- ${line}`);
  const page = await pageSession();
  expect(await page.html('/')).toContain(line);

  // A file cut in the middle of its last record is not resumed: refused, saying which, nothing changed.
  const whole = readFileSync(sessionFile, 'utf8');
  writeFileSync(sessionFile, whole.slice(0, whole.length - 20));
  const cut = await w.hand(['relaunch', id, '--resume', '--json']);
  expect(cut.code).not.toBe(0);
  expect(cut.json.error).toMatchObject({ code: 'session-truncated' });
  expect(cut.json.error.message).toContain('cut short');
  expect(cut.json.error.message).toContain(`hand relaunch ${id}`);
  expect((await w.status(id)).stage).toBe('lost');
  writeFileSync(sessionFile, whole);

  // Resumed: the report is written on its next turn (what the model does with the line).
  const reportPath = w.reportPathOf(id);
  const mark = watermark(fake);
  fake.queue([{ kind: 'tool_use', name: 'Write', text: 'Carrying on.', input: { file_path: reportPath, content: '# Report\n\nStatus: done after the restart.\n' } }]);
  const r = await w.hand(['resume', '--all-lost', '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.json).toMatchObject({ resumed: [{ id, session: running.session, typed: RESUME_LINE }], refused: [] });

  const next = await w.request(id, mark, (x) => x.kind === 'main', 'the first model request of the resumed conversation');
  const body = next.body ?? '';
  // The earlier messages of that conversation: the first prompt, the brief read and its result.
  expect(body).toContain(`Read the brief at ${w.home}`);
  expect(body).toContain(toolUseIdOf(briefRead)!);
  expect(next.summary!.messageCount).toBeGreaterThanOrEqual(3);
  // Nothing typed beyond the one line.
  const typed = next.summary!.lastUserTexts.filter((t) => !t.trimStart().startsWith('<system-reminder>') && !t.startsWith('[Request interrupted'));
  expect(typed).toEqual([RESUME_LINE]);

  const done = await w.wait(id, 'settled', '60s');
  expect(done.code, done.stdout + done.stderr).toBe(0);
  expect(readFileSync(reportPath, 'utf8')).toContain('done after the restart');
  const after = await w.status(id);
  expect(after).toMatchObject({ live: true, session: running.session, reportExists: true });
  // The same session file carried on (resume appends to it).
  expect(readFileSync(sessionFile, 'utf8')).toContain('done after the restart');

  // Item 4: its tokens are what the fake served its conversation (side requests such as a title are no part of the session's record).
  const served = fake.received.filter((x) => x.kind === 'main' && x.served).map((x) => x.served!);
  const sum = (k: 'input' | 'output' | 'cacheRead' | 'cacheWrite') => served.reduce((n, u) => n + u[k], 0);
  const cost = await until('the cost of every served reply to be read', () => w.status(id), (s) => s.cost?.messages === served.length, 30_000, 200);
  expect(cost.cost).toMatchObject({ input: sum('input'), output: sum('output'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite'), messages: served.length });
  // claude-opus-5-5 is in the price table: a cost in dollars, per worker, per project and day, on every face.
  expect(cost.cost.usd).toBeGreaterThan(0);
  expect(cost.cost.unpriced).toEqual([]);
  const dollars = costText(cost.cost);
  expect((await w.hand(['status'])).stdout).toContain(dollars);
  expect((await w.hand(['digest'])).stdout).toMatch(new RegExp(`COST today: \\$[0-9.]+ · .* \\(${project} ${dollars.replace('$', '\\$')}\\)`));
  const byDay = (await w.hand(['cost', '--json'])).json;
  expect(byDay.workers).toContainEqual(expect.objectContaining({ id, usd: cost.cost.usd }));
  expect(byDay.projectDays[0]).toMatchObject({ project, day: byDay.today, usd: cost.cost.usd });
  expect(await (await pageSession()).html(`/w/${id}`)).toContain(dollars);
}, 150_000);

/** A page session as a person's browser has one (the token URL hand review gives). */
async function pageSession(): Promise<{ html(path: string): Promise<string> }> {
  const url = new URL((await w.hand(['review', '--json'])).json.url as string);
  const s = await signInWithToken(url.origin, url.searchParams.get('token')!);
  return { html: async (path) => (await fetch(`${url.origin}${path}`, { headers: { cookie: s.cookie } })).text() };
}
