/**
 * Issue 22's "Done means", with the REAL Claude Code 2.1.332 as the Hand in a `hand init`
 * workspace, the fake model scripting the Hand's side (tests/claude-e2e/hand-script.ts: each
 * request answered from what it carries, since the person's messages and the fleet's wake lines
 * interleave) and two mock workers on tmux behind it. One Claude start for the whole exchange:
 * the tests run in order and each says what the previous one left.
 *
 * The person asks for two tasks; the Hand arms the Monitor on `hand watch --needs-you`, files two
 * backlog items, dispatches both by item and approves both briefs on the person's word; the
 * person's next message is answered while both workers run; worker menu-a's menu wakes the Hand
 * (the wake line is in a later model request) and worker park-b's parked decision wakes it too;
 * the decision goes back with `decide`, the worker finishes, its landing is approved; `survey`
 * shows what is left in the queue; the person goes away, the menu is answered with `keys` on
 * their word, menu-a asks again while they are away, and `afk_off` returns it under "waits on
 * you", its question quoted. No permission prompt on any screen; every tool result is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { requireClaudeBinary } from '../harness/claude-binary.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { launchInTmux, type TmuxPane } from '../harness/claude-tmux.ts';
import { showsIdleBox } from '../harness/real-claude.ts';
import { handRunner, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { makeTempDir, waitFor, waitForEvent } from '../helpers/temp.ts';
import { removeWhenQuiet } from './e2e-world.ts';
import { HandScript, resultJson, type HandCall } from './hand-script.ts';
import { personTurns, wakeTurns, Q1, Q2, PARK_QUESTION, SAY } from './hand-workflow-turns.ts';

const PROMPT_MARKERS = ['Do you want to proceed?', 'Do you want to make this edit', 'New MCP server found', 'Use this MCP server', 'requires approval', 'Do you want to allow'];

let fake: FakeAnthropic;
let tmp: { path: string; cleanup: () => void };
let pane: TmuxPane | null = null;
let hand: HandRunner;
let state: string;
let repo: string;
let script: HandScript;
const screens: string[] = [];
let watching = true;

/** Resolves once the scripted Hand has closed the turn `key` (said its words), already or later. */
function saidBy(key: string, timeoutMs = 60_000): Promise<string> {
  const done = () => script.said.get(key);
  if (done()) return Promise.resolve(done()!);
  return waitForEvent((l) => fake.onRequest(l), () => done() !== undefined, { what: `the Hand to finish its turn for ${key} (started: ${script.started.join(', ')}; wake lines received: ${script.notifications.flatMap((n) => [...n.matchAll(/<event>([^<]{0,60})/g)].map((m) => m[1])).join(' | ')})`, timeoutMs }).then(() => done()!);
}

/** The person types into the Hand's pane, as at a keyboard: the words, then Enter. */
async function person(words: string): Promise<void> {
  await pane!.type(words);
  await pane!.waitForScreen((s) => s.includes(words.slice(0, 40)), `the person's words "${words}" in the Hand's box`);
  await pane!.keys('Enter');
}

const callsOf = (turn: string): HandCall[] => script.calls.filter((c) => c.turn === turn);

beforeAll(async () => {
  const bin = requireClaudeBinary();
  tmp = makeTempDir('hand-workflow');
  const home = join(tmp.path, 'home');
  const ws = join(tmp.path, 'ws');
  state = join(tmp.path, 'state');
  repo = join(tmp.path, 'repo');
  mkdirSync(home);
  makeTestRepo(repo, '# a project\n');
  const brief = (name: string, goal: string) => {
    const path = join(tmp.path, `${name}.md`);
    writeFileSync(path, `# ${name}\n\n## Goal\n\n${goal}\n\n## Read first\n\nNothing.\n`);
    return path;
  };
  const briefs = { a: brief('menu-a', 'ASK-TWICE: choose the database with the person.'), b: brief('park-b', 'PARK-AFTER-WORK: set up the queue.'), c: brief('later-c', 'Add a health page.') };
  // The workers' own turns: menu-a asks, and once answered asks again; park-b commits, then parks.
  const reportB = join(state, 'workers', 'park-b', 'out', 'report.md');
  const scenario = join(tmp.path, 'workers-scenario.json');
  writeFileSync(scenario, JSON.stringify({
    turns: [
      { match: 'ASK-TWICE', once: true, steps: [
        { kind: 'think', ms: 600 },
        { kind: 'ask', header: 'Database', question: Q1, options: [{ label: 'SQLite' }, { label: 'Postgres' }, { label: 'None' }] },
        { kind: 'think', ms: 1500 },
        { kind: 'reply', text: 'Using {answer}.' },
        { kind: 'ask', header: 'Migrations', question: Q2, options: [{ label: 'Yes' }, { label: 'No' }] },
      ] },
      { match: 'PARK-AFTER-WORK', once: true, steps: [
        { kind: 'think', ms: 6000 },
        { kind: 'bash', command: 'echo redis > queue.txt && git add queue.txt && git commit -q -m "Add the queue setting"', description: 'Commit the queue setting' },
        { kind: 'write', path: reportB, content: `# Report\n\nThe queue setting is committed.\n\nWaiting on: ${PARK_QUESTION}\n- Redis\n- SQS\n` },
        { kind: 'reply', text: 'I need a decision; it is in the report.' },
      ] },
    ],
  }));
  fake = await startFakeAnthropic({ suggestion: null, keepRawBodies: true, respond: (s, seq) => script.respond(s, seq) });
  const env = {
    ...claudeTestEnv({ home, baseUrl: fake.url, renderer: 'fullscreen', path: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` }),
    KH_MOCK_TICK_MS: '200', KH_MOCK_SCENARIO: scenario, KH_MOCK_PERMISSION_MODE: 'auto', KH_MOCK_RUN_BASH: '1',
    GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid',
  };
  hand = handRunner(state, env, 60_000);
  const init = await hand(['init', ws, '--json']);
  expect(init.code, init.stderr).toBe(0);
  // Not yolo: both briefs and the landing wait at their gates for the person's word.
  const annex = await hand(['annex', repo, '--json']);
  expect(annex.code, annex.stderr).toBe(0);
  const watchCommand = /Monitor with `([^`]+)`/.exec(readFileSync(join(ws, 'CLAUDE.md'), 'utf8'))![1]!;
  script = new HandScript((t) => (t.kind === 'person' ? personTurns(t.text, { watchCommand, briefs, calls: () => script.calls }) : wakeTurns(t.text)));
  const { claudeJsonPath } = seedClaudeHome({ home, worktrees: [], renderer: 'fullscreen' });
  expect(await seedTrust({ claudeJsonPath, worktree: ws })).toBe('seeded');
  pane = await launchInTmux({ dir: tmp.path, cwd: ws, env, argv: [bin] });
  void (async () => {
    while (watching && pane) {
      screens.push(await pane.capture().catch(() => ''));
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  await pane.waitStable('the Hand at its idle box', { accept: showsIdleBox, timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  watching = false;
  if (pane) screens.push(await pane.capture().catch(() => ''));
  if (process.env.KH_DEBUG_TRANSCRIPT && pane) writeFileSync(process.env.KH_DEBUG_TRANSCRIPT, `${screens.filter((_, i, a) => i === 0 || a[i - 1] !== a[i]).join('\n=====\n')}\n=====CALLS\n${JSON.stringify(script?.calls, null, 1)}\n=====NOTIFICATIONS\n${script?.notifications.join('\n---\n')}`);
  await pane?.kill();
  if (hand) {
    for (const id of ['menu-a', 'park-b']) await hand(['stop', id, '--json'], { timeoutMs: 30_000 });
    await stopInstallation(hand, state, 20_000);
  }
  await fake?.close();
  if (tmp) await removeWhenQuiet(tmp.cleanup);
}, 90_000);

describe.sequential('the Hand runs the whole workflow in real Claude Code', () => {
  it('arms the needs-you Monitor, files two items, dispatches both by item and approves both briefs on the person\'s word', async () => {
    await person(SAY.start);
    await saidBy('person:start', 90_000);
    // The session started on the digest (SessionStart hook): the Claude Code line against the corpus is in it.
    const first = fake.received.find((r) => r.kind === 'main')!.raw ?? '';
    expect(first).toContain('=== HAND DIGEST');
    expect(first).toContain("CLAUDE CODE: Claude Code 2.1.332: its screens are in the reader's corpus");
    const calls = callsOf('person:start');
    expect(calls.map((c) => c.name)).toEqual(['Monitor', 'mcp__hand__backlog_add', 'mcp__hand__backlog_add', 'mcp__hand__dispatch', 'mcp__hand__dispatch', 'mcp__hand__approve', 'mcp__hand__approve']);
    const monitor = calls[0]!.result!;
    expect(monitor.isError, monitor.content).toBe(false);
    expect(monitor.content).toMatch(/^Monitor started/);
    expect(resultJson(calls[1])).toMatchObject({ id: 'menu-a', state: 'queued' });
    expect(resultJson(calls[2])).toMatchObject({ id: 'park-b', state: 'queued' });
    expect(resultJson(calls[3])).toMatchObject({ id: 'menu-a', item: 'menu-a', agent: 'mock', backend: 'tmux' });
    expect(resultJson(calls[4])).toMatchObject({ id: 'park-b', item: 'park-b', agent: 'mock', backend: 'tmux' });
    expect(resultJson(calls[5])).toMatchObject({ id: 'menu-a' });
    expect(resultJson(calls[6])).toMatchObject({ id: 'park-b' });
  }, 120_000);

  it("answers the person's next message while both workers run", async () => {
    await person(SAY.meanwhile);
    await saidBy('person:meanwhile');
    const rows = resultJson(callsOf('person:meanwhile')[0]) as { id: string; stage: string; live: boolean }[];
    expect(rows.map((r) => r.id).sort()).toEqual(['menu-a', 'park-b']);
    // Neither worker has finished: the Hand talks while they run, it is not parked on one.
    for (const r of rows) expect(r.live, `${r.id} at ${r.stage}`).toBe(true);
    expect(rows.find((r) => r.id === 'park-b')!.stage).not.toMatch(/parked|done|stopped/);
  }, 60_000);

  it("wakes on menu-a's menu and on park-b's parked decision: each line reaches the session in a later model request", async () => {
    await saidBy('wake:a-q1');
    await saidBy('wake:b-parked');
    const q1 = script.notifications.find((n) => n.includes('menu-a is blocked'))!;
    expect(q1).toContain(`worker menu-a wrote: "${Q1}"`);
    expect(q1).toMatch(/SQLite.*Postgres.*None/s);
    expect(script.notifications.find((n) => n.includes('park-b parked on a decision'))).toContain(PARK_QUESTION);
    const decisions = resultJson(callsOf('wake:b-parked')[0]) as { key: string; worker: string; question: string }[];
    expect(decisions).toEqual([expect.objectContaining({ worker: 'park-b', question: PARK_QUESTION, options: ['Redis', 'SQS'] })]);
  }, 90_000);

  it('relays the decision with decide: the worker takes it and finishes; its landing is approved', async () => {
    await person(SAY.decideB);
    await saidBy('person:decideB');
    expect(resultJson(callsOf('person:decideB')[0])).toMatchObject({ delivery: 'sent' });
    await waitFor(async () => (await hand(['status', 'park-b', '--json'])).json?.[0]?.stage === 'done', { what: 'park-b done after the answer', timeoutMs: 60_000, intervalMs: 500 });
    // Finished with its report, it wakes the Hand by itself: its landing is the person's next step.
    await saidBy('wake:park-b finished and wrote its report; landing it is yours to ask for');
    await person(SAY.landB);
    await saidBy('person:landB');
    expect(resultJson(callsOf('person:landB')[0])).toMatchObject({ id: 'park-b', evidence: { commits: 1 } });
    await person(SAY.approveB);
    await saidBy('person:approveB');
    expect(resultJson(callsOf('person:approveB')[0])).toMatchObject({ id: 'park-b' });
    expect(execFileSync('git', ['log', '--format=%s', '-1', 'main'], { cwd: repo, encoding: 'utf8' }).trim()).toBe('Add the queue setting');
    // The gate and the landing were printed while the Hand was in a turn: they still reach the model.
    expect(script.notifications.some((n) => n.includes('park-b waits at its landing approval'))).toBe(true);
    // A landing that happened is past: it never wakes the Hand (it is news for audience).
    await waitFor(async () => (await hand(['status', 'park-b', '--json'])).json?.[0]?.stage === 'landed', { what: 'park-b landed', timeoutMs: 30_000, intervalMs: 250 });
    expect(script.notifications.filter((n) => /park-b landed/.test(n)), 'no wake for a landing').toEqual([]);
  }, 120_000);

  it('survey shows the remaining queue', async () => {
    await person(SAY.queueC);
    await saidBy('person:queueC');
    const [added, survey] = callsOf('person:queueC');
    expect(resultJson(added)).toMatchObject({ id: 'later-c', state: 'queued' });
    expect(JSON.stringify(resultJson(survey))).toContain('item later-c is ready');
  }, 60_000);

  it('goes away, answers the menu with keys on the person\'s word; afk off returns the worker that asked again under "waits on you", its question quoted', async () => {
    await person(SAY.away);
    await saidBy('person:away');
    const [away, read, key] = callsOf('person:away');
    expect(resultJson(away)).toMatchObject({ away: true, note: 'back in an hour' });
    expect(resultJson(read).text).toContain(Q1);
    expect(resultJson(key)).toMatchObject({ id: 'menu-a' });
    await saidBy('wake:a-q2');
    // The one key went where the person said: the worker took the first option and went on.
    expect((await hand(['read', 'menu-a', '--json'])).json.text).toContain('Using SQLite.');
    expect(script.notifications.some((n) => n.includes(`worker menu-a wrote: "${Q2}"`))).toBe(true);
    await person(SAY.back);
    await saidBy('person:back');
    const { account, wasAway } = resultJson(callsOf('person:back')[0]);
    expect(wasAway).toBe(true);
    expect(account.waitingOnYou).toEqual([expect.objectContaining({ worker: 'menu-a', question: `worker menu-a wrote: "${Q2}"` })]);
    await pane!.waitForScreen((s) => s.includes(`"${Q2}"`), 'the account relayed with the question quoted', 30_000);
  }, 90_000);

  it('drew no permission prompt on any screen, and every tool call came back without an error', () => {
    // By the end of the run, no wake ever named a landing (it is past, never a need).
    expect(script.notifications.filter((n) => /\blanded\b/.test(n)), 'no wake for a landing').toEqual([]);
    expect(screens.length).toBeGreaterThan(10);
    const prompted = screens.filter((s) => PROMPT_MARKERS.some((m) => s.includes(m)));
    expect(prompted, prompted[0]).toHaveLength(0);
    expect(screens.filter((s) => /Deny rule|Allow rule|never matches/.test(s))).toEqual([]);
    const failed = script.calls.filter((c) => !c.result || c.result.isError);
    expect(failed.map((c) => `${c.turn} ${c.name}: ${c.result?.content ?? 'no result'}`)).toEqual([]);
  });
});
