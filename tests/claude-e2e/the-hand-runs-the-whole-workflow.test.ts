/**
 * Issues 22 and 38, with the REAL Claude Code 2.1.332 as the Hand in a `hand init` workspace, the
 * fake model scripting the Hand's side (tests/claude-e2e/hand-script.ts: each request answered
 * from what it carries, since the person's messages and the fleet's wake lines interleave) and two
 * mock workers on tmux behind it. The tests run in order and each says what the previous one left.
 *
 * The person asks for two tasks; the Hand arms the Monitor on `hand watch --needs-you`, files two
 * backlog items, dispatches both by item and approves both briefs on the person's word; the
 * person's next message is answered while both workers run; menu-a's menu and park-b's parked
 * decision wake the Hand; park-b's item is held (visible) and the decision goes back with
 * `decide`; park-b finishes and wakes the Hand by itself; the Hand reads its report with the
 * `report` tool, gives the worker's page (opened in Chromium) and lands it (the hold cleared);
 * the Hand's shell is refused a setting of the person's; afk on with menu-a already blocked, afk
 * off returns it under "waits on you"; the menu is answered with `keys`; the workers' terminal
 * server freezes and menu-a reads could not tell, then comes back; the person answers and leaves
 * for the night; a second Claude session the next morning starts on a digest with the away
 * account and the landing as "landed", and its wake never replays the landing.
 *
 * Issue 38's twelve points, each asserted where it happens (point N in the comments).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { handRunner } from '../helpers/hand-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { waitFor, waitForEvent } from '../helpers/temp.ts';
import { HandScript, resultJson } from './hand-script.ts';
import { HandSession, mockWorkersEnv } from './hand-session-world.ts';
import { workflowTurns, Q1, Q2, PARK_QUESTION, SAY } from './hand-workflow-turns.ts';
import { launchChromium } from '../helpers/browser.ts';
import { homePaths } from '../../contract/home.ts';

const s = new HandSession();
let repo: string;
/** A new scripted Hand for each Claude session; `s.scripts` keeps every one for the last check. */
let newScript: () => HandScript;
/** A tmux server this test stopped with SIGSTOP: let go whatever fails. */
let frozen: number | null = null;
/** The second session's digest, for the debug transcript. */
let digestSeen = '';
const SERVER_ANSWER_MS = 1000;

/** The body of the first model request made after `from` requests (a session's first: the digest rides in it). */
function firstRequestAfter(from: number): string {
  const r = s.fake.received.slice(from).find((x) => x.kind === 'main');
  if (!r) throw new Error(`no main request after request ${from}`);
  return r.raw ?? '';
}

async function startHandSession(): Promise<void> {
  await s.startClaude(newScript());
  await s.atIdleBox();
}

beforeAll(async () => {
  await s.open('hand-workflow');
  repo = s.path('repo');
  makeTestRepo(repo, '# a project\n');
  const briefs = { a: s.brief('menu-a', 'ASK-TWICE: choose the database with the person.'), b: s.brief('park-b', 'PARK-AFTER-WORK: set up the queue.'), c: s.brief('later-c', 'Add a health page.') };
  // The workers' own turns: menu-a asks, and once answered asks again; park-b commits, then parks.
  const scenario = s.workerScenario([
    { match: 'ASK-TWICE', once: true, steps: [
      { kind: 'think', ms: 600 },
      { kind: 'ask', header: 'Database', question: Q1, options: [{ label: 'SQLite' }, { label: 'Postgres' }, { label: 'None' }] },
      { kind: 'think', ms: 1500 },
      { kind: 'reply', text: 'Using {answer}.' },
      { kind: 'ask', header: 'Migrations', question: Q2, options: [{ label: 'Yes' }, { label: 'No' }] },
      // Answered as the person leaves for the night: it finishes while they are away.
      { kind: 'think', ms: 2500 },
      { kind: 'write', path: s.reportPathOf('menu-a'), content: '# Report\n\nThe shop uses SQLite, with a migration log.\n' },
      { kind: 'reply', text: 'Done; the report is written.' },
    ] },
    { match: 'PARK-AFTER-WORK', once: true, steps: [
      { kind: 'think', ms: 6000 },
      { kind: 'bash', command: 'echo redis > queue.txt && git add queue.txt && git commit -q -m "Add the queue setting"', description: 'Commit the queue setting' },
      { kind: 'write', path: s.reportPathOf('park-b'), content: `# Report\n\nThe queue setting is committed.\n\nWaiting on: ${PARK_QUESTION}\n- Redis\n- SQS\n` },
      { kind: 'reply', text: 'I need a decision; it is in the report.' },
    ] },
  ]);
  // A frozen terminal server reads could not tell after one second (point 8), not the default five.
  await s.init({ ...mockWorkersEnv(scenario), HAND_SERVER_ANSWER_MS: String(SERVER_ANSWER_MS) });
  // Not yolo: both briefs and the landing wait at their gates for the person's word.
  const annex = await s.hand(['annex', repo, '--json']);
  expect(annex.code, annex.stderr).toBe(0);
  const { watchCommand, handCommand } = s.kitCommands();
  expect(handCommand, 'the kit names its hand command before "watch --needs-you"').not.toBe(watchCommand);
  newScript = () => {
    const own: HandScript = new HandScript(workflowTurns({ watchCommand, handCommand, briefs, calls: () => own.calls }));
    return own;
  };
  await startHandSession();
}, 120_000);

afterAll(async () => {
  if (frozen !== null) process.kill(frozen, 'SIGCONT');
  await s.close(['menu-a', 'park-b'], { DIGEST: digestSeen });
}, 90_000);

describe.sequential('the Hand runs the whole workflow in real Claude Code, two sessions', () => {
  it('arms the needs-you Monitor, files two items, dispatches both by item and approves both briefs on the person\'s word', async () => {
    await s.person(SAY.start);
    await s.saidBy('person:start', 90_000);
    // The session started on the digest (SessionStart hook): the Claude Code line against the corpus is in it.
    const first = firstRequestAfter(0);
    expect(first).toContain('=== HAND DIGEST');
    expect(first).toContain("CLAUDE CODE: Claude Code 2.1.332: its screens are in the reader's corpus");
    // Point 12: no tool deferred behind ToolSearch. Claude Code asks the first turn without waiting
    // for its MCP servers: on a loaded machine `hand mcp` has not answered yet, and the model has
    // WaitForMcpServers in its stead (tests/claude-e2e/hand-session-real-claude.test.ts starts it
    // late on purpose); every later request of the turn carries the hand tools themselves.
    const toolsOf = (body: string) => (JSON.parse(body) as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    const tools = toolsOf(first);
    if (!tools.includes('mcp__hand__dispatch')) expect(tools).toContain('WaitForMcpServers');
    expect(tools).toContain('Monitor');
    expect(tools).not.toContain('ToolSearch');
    const second = s.fake.received.filter((x) => x.kind === 'main')[1]?.raw ?? '';
    expect(toolsOf(second)).toEqual(expect.arrayContaining(['mcp__hand__dispatch', 'mcp__hand__report', 'mcp__hand__review_url', 'Monitor']));
    const calls = s.callsOf('person:start');
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
    await s.person(SAY.meanwhile);
    await s.saidBy('person:meanwhile');
    const rows = resultJson(s.callsOf('person:meanwhile')[0]) as { id: string; stage: string; live: boolean }[];
    expect(rows.map((r) => r.id).sort()).toEqual(['menu-a', 'park-b']);
    // Neither worker has finished: the Hand talks while they run, it is not parked on one.
    for (const r of rows) expect(r.live, `${r.id} at ${r.stage}`).toBe(true);
    expect(rows.find((r) => r.id === 'park-b')!.stage).not.toMatch(/parked|done|stopped/);
  }, 60_000);

  it("wakes on menu-a's menu and on park-b's parked decision, each question lifted once; a parked worker refuses send", async () => {
    await s.saidBy('wake:a-q1');
    await s.saidBy('wake:b-parked');
    const q1 = s.script.notifications.find((n) => n.includes('menu-a is blocked'))!;
    expect(q1).toContain(`worker menu-a wrote: "${Q1}"`);
    expect(q1).toMatch(/SQLite.*Postgres.*None/s);
    expect(s.script.notifications.find((n) => n.includes('park-b parked on a decision'))).toContain(PARK_QUESTION);
    const decisions = resultJson(s.callsOf('wake:b-parked')[0]) as { key: string; worker: string; question: string }[];
    expect(decisions).toEqual([expect.objectContaining({ worker: 'park-b', question: PARK_QUESTION, options: ['Redis', 'SQS'] })]);
    // Point 11: one lifter. wait --json's question is the dialog's, quoted once, as the wake line quoted it.
    const waited = await s.hand(['wait', 'menu-a', '--until', 'blocked', '--timeout', '10s', '--json']);
    expect(waited.json).toMatchObject({ met: true, question: `worker menu-a wrote: "${Q1}"` });
    expect(waited.json.options.slice(0, 3)).toEqual(['1. SQLite', '2. Postgres', '3. None'].map((o) => `worker menu-a wrote: "${o}"`));
    expect(waited.json.dialog.question, 'the dialog and the top-level question are one lift').toBe(waited.json.question);
    expect(q1).toContain(waited.json.question);
    // Point 5: a parked worker takes no new line; the refusal names decide (and the box override does not lift it).
    for (const extra of [[], ['--allow-non-empty-box']]) {
      const sent = await s.hand(['send', 'park-b', 'Redis', ...extra, '--json']);
      expect(sent.code, sent.stdout).not.toBe(0);
      expect(`${sent.stdout}${sent.stderr}`).toMatch(/decide/);
    }
  }, 90_000);

  it("holds park-b's item on the person's word: the hold shows in the digest's queue and in survey", async () => {
    await s.person(SAY.holdB);
    await s.saidBy('person:holdB');
    expect(resultJson(s.callsOf('person:holdB')[0])).toMatchObject({ id: 'park-b', state: 'in-flight', hold: { kind: 'person' } });
    // Point 6: visible while the item is in flight.
    const digest = await s.hand(['digest', '--workspace', s.ws]);
    expect(digest.stdout).toMatch(/QUEUE: \d+ ready, 1 held/);
    const survey = await s.hand(['survey', '--json']);
    expect(JSON.stringify(survey.json)).toMatch(/park-b[^"]*held/);
  }, 60_000);

  it('relays the decision with decide; park-b finishes and wakes the Hand, which reads the report with its tool, opens the worker page and lands it', async () => {
    await s.person(SAY.decideB);
    await s.saidBy('person:decideB');
    expect(resultJson(s.callsOf('person:decideB')[0])).toMatchObject({ delivery: 'sent' });
    await waitFor(async () => (await s.row('park-b'))?.stage === 'done', { what: 'park-b done after the answer', timeoutMs: 60_000, intervalMs: 500 });
    // Point 1: finished with its report, it wakes the Hand by itself: its landing is the person's next step.
    await s.saidBy('wake:park-b finished and wrote its report; landing it is yours to ask for');
    await s.person(SAY.landB);
    await s.saidBy('person:landB');
    const [report, link, land] = s.callsOf('person:landB');
    // Point 2: the report through the tool, quoted as the worker's words (no file read, so no prompt: checked at the end).
    expect(resultJson(report)).toMatchObject({ id: 'park-b', state: 'read' });
    expect(resultJson(report).text).toContain('│ Done, using Redis as decided');
    expect(resultJson(report).text).toMatch(/park-b/);
    expect(resultJson(land)).toMatchObject({ id: 'park-b', evidence: { commits: 1 } });
    // Point 3: the worker's link opens its page in a real browser, signed in, with the diff.
    const url = resultJson(link).url as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/w\/park-b\?token=/);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/w/park-b');
      expect(new URL(page.url()).search, 'the token leaves the address bar').toBe('');
      const body = await page.locator('body').innerText();
      expect(body).toContain('park-b');
      expect(body).toContain('queue.txt');
    } finally {
      await browser.close();
    }
    await s.person(SAY.approveB);
    await s.saidBy('person:approveB');
    expect(resultJson(s.callsOf('person:approveB')[0])).toMatchObject({ id: 'park-b' });
    expect(execFileSync('git', ['log', '--format=%s', '-1', 'main'], { cwd: repo, encoding: 'utf8' }).trim()).toBe('Add the queue setting');
    // The gate was printed while the Hand was in a turn: it still reaches the model.
    expect(s.script.notifications.some((n) => n.includes('park-b waits at its landing approval'))).toBe(true);
    await waitFor(async () => (await s.row('park-b'))?.stage === 'landed', { what: 'park-b landed', timeoutMs: 30_000, intervalMs: 250 });
    // Point 6: the hold is cleared with the item's landing, and the journal says so.
    const shown = await s.hand(['backlog', 'show', 'park-b', '--json']);
    expect(shown.json).toMatchObject({ state: 'done', hold: null });
    const journal = await s.hand(['journal', '--json']);
    expect(JSON.stringify(journal.json)).toMatch(/item park-b is done: its hold \(person: [^)]*\) is cleared/);
    expect((await s.hand(['digest', '--workspace', s.ws])).stdout).not.toMatch(/[1-9] held/);
    // Point 7: a landing that happened is past: it never wakes the Hand.
    expect(s.script.notifications.filter((n) => /park-b landed/.test(n)), 'no wake for a landing').toEqual([]);
  }, 150_000);

  it('survey shows the remaining queue', async () => {
    await s.person(SAY.queueC);
    await s.saidBy('person:queueC');
    const [added, survey] = s.callsOf('person:queueC');
    expect(resultJson(added)).toMatchObject({ id: 'later-c', state: 'queued' });
    expect(JSON.stringify(resultJson(survey))).toContain('item later-c is ready');
  }, 60_000);

  it("refuses the Hand a setting that is the person's: its shell is denied without a prompt, and the daemon refuses its caller", async () => {
    await s.person(SAY.phone);
    const said = await s.saidBy('person:phone');
    // Point 10: the kit's deny rule answers the Hand's Bash (an error result, no dialog on the screen).
    const [bash] = s.callsOf('person:phone');
    expect(bash!.result?.isError, bash!.result?.content).toBe(true);
    expect(bash!.result?.content).toMatch(/denied|deny/i);
    expect(said).toContain('yours to set');
    // …and the daemon refuses it to any caller that says it is the Hand's, whatever its shell allowed.
    const asHand = handRunner(s.state, { ...s.env, HAND_CALLER: 'hand' }, 30_000);
    const refused = await asHand(['notify', 'add', 'ntfy', 'kh-e2e-phone', '--json']);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/person/i);
    expect((await s.hand(['notify', 'list', '--json'])).json).toEqual([]);
  }, 60_000);

  it('afk on with menu-a already blocked; afk off returns it under "waits on you", its question quoted once', async () => {
    await s.person(SAY.away);
    await s.saidBy('person:away');
    expect(resultJson(s.callsOf('person:away')[0])).toMatchObject({ away: true, note: 'back in an hour' });
    await s.person(SAY.back);
    const said = await s.saidBy('person:back');
    // Point 4: blocked before the absence, and still blocked: it waits on you; nothing runs, nothing is ready.
    const { account, wasAway } = resultJson(s.callsOf('person:back')[0]);
    expect(wasAway).toBe(true);
    expect(account.waitingOnYou).toEqual([expect.objectContaining({ worker: 'menu-a', question: `worker menu-a wrote: "${Q1}"` })]);
    expect(account.readyToLand).toEqual([]);
    expect(account.stillRunning).toEqual([]);
    // Nothing happened while away, but something waits: never "Nothing needed you".
    expect(account.summary).toBe('Nothing new happened while you were away. One thing waits on you.');
    expect(said).toContain(`Waits on you: worker menu-a wrote: "${Q1}"`);
    expect(said, 'quoted once').not.toContain('wrote: "worker');
    await s.pane!.waitForScreen((screen) => screen.includes(`"${Q1}"`), 'the account relayed with the question quoted', 30_000);
  }, 90_000);

  it('answers the menu with keys on the word; the next question wakes the Hand', async () => {
    await s.person(SAY.pickA);
    await s.saidBy('person:pickA');
    expect(resultJson(s.callsOf('person:pickA')[0]).text).toContain(Q1);
    await s.saidBy('wake:a-q2');
    // The one key went where the person said: the worker took the first option and went on.
    expect((await s.hand(['read', 'menu-a', '--json'])).json.text).toContain('Using SQLite.');
    expect(s.script.notifications.some((n) => n.includes(`worker menu-a wrote: "${Q2}"`))).toBe(true);
  }, 90_000);

  it('a frozen terminal server: menu-a reads could not tell within the bound and wakes the Hand; back to blocked when the server answers', async () => {
    const socket = homePaths(s.state).tmuxSocket;
    const pid = Number(execFileSync('tmux', ['-S', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim());
    process.kill(pid, 'SIGSTOP');
    frozen = pid;
    // Point 8: never the last reading: could not tell, with the reason, within the bound.
    const silent = await waitFor(async () => {
      const row = await s.row('menu-a');
      return row?.couldNotTell ? row : false;
    }, { what: 'menu-a to read could not tell while its tmux server is stopped', timeoutMs: 10 * SERVER_ANSWER_MS, intervalMs: 100 });
    expect(silent).toMatchObject({ readable: false, live: null, couldNotTell: 'the tmux server did not answer within 1 s' });
    try {
      // Heard already (the wake may reach the model while status is still being polled), or later.
      const heard = () => s.script.notifications.some((n) => n.includes('menu-a could not tell'));
      if (!heard()) await waitForEvent((l) => s.fake.onRequest(l), heard, { what: 'the could-not-tell wake line in a model request', timeoutMs: 30_000 }).catch(async (err: Error) => {
        // Say what was heard instead, and what the daemon says of menu-a, so a failure explains itself.
        const row = await s.row('menu-a');
        throw new Error(`${err.message}\nwake lines heard since the freeze began: ${JSON.stringify(s.script.notifications.slice(-5))}\nmenu-a now: ${JSON.stringify({ condition: row?.condition, couldNotTell: row?.couldNotTell, disputed: row?.disputed, stage: row?.stage })}`);
      });
    } finally {
      // Thawed whatever happened above: a stopped server left behind would fail every later step.
      process.kill(pid, 'SIGCONT');
      frozen = null;
    }
    const back = await waitFor(async () => {
      const row = await s.row('menu-a');
      return row?.readable && row.couldNotTell === null ? row : false;
    }, { what: 'menu-a read live again after SIGCONT', timeoutMs: 10_000, intervalMs: 100 });
    expect(back).toMatchObject({ live: true, state: 'blocked' });
  }, 60_000);

  it('the person answers and leaves for the night; menu-a finishes while they are away', async () => {
    await s.person(SAY.goodnight);
    await s.saidBy('person:goodnight');
    expect(resultJson(s.callsOf('person:goodnight')[1])).toMatchObject({ away: true, note: 'until morning' });
    // The session ends (the terminal closed); the worker goes on without it.
    await s.pane!.kill();
    s.pane = null;
    await waitFor(async () => (await s.row('menu-a'))?.stage === 'done', { what: 'menu-a done with its report while the person is away', timeoutMs: 60_000, intervalMs: 500 });
  }, 90_000);

  it('the next morning a new session starts on a digest with the away account, park-b "landed"; its wake never replays the landing', async () => {
    const before = s.fake.received.length;
    await startHandSession();
    await s.person(SAY.morning);
    const said = await s.saidBy('person:morning', 90_000);
    // The digest as the hook printed it: its lines, out of the request body's JSON string.
    const escaped = /=== HAND DIGEST.*?=== END HAND DIGEST ===/.exec(firstRequestAfter(before))?.[0];
    expect(escaped, 'the SessionStart digest in the new session\'s first request').toBeDefined();
    const digest = JSON.parse(`"${escaped}"`) as string;
    digestSeen = digest;
    // Point 9: what happened while away reaches the new session first (afk.digest), menu-a under its landing.
    expect(digest).toMatch(/WHILE YOU WERE AWAY \(since [^)]+\): /);
    expect(digest).toContain('- ready to land: menu-a finished and wrote its report → hand land menu-a');
    // Point 6: a landed worker reads landed, never gone; the queue holds later-c and no hold.
    expect(digest).toContain('WORKERS 2: done menu-a; landed park-b');
    expect(digest).not.toMatch(/gone park-b/);
    expect(digest).toMatch(/QUEUE: 1 ready, 0 held/);
    const [monitor, survey, report] = s.callsOf('person:morning');
    expect(monitor!.result?.content).toMatch(/^Monitor started/);
    const picture = resultJson(survey) as { needsYou: { id: string; text: string }[]; recentlyLanded: { text: string }[]; next: { text: string }[] };
    expect(picture.needsYou.map((n) => n.text).join('\n')).toMatch(/menu-a/);
    expect(picture.recentlyLanded.map((n) => n.text).join('\n')).toMatch(/park-b/);
    expect(picture.next.map((n) => n.text).join('\n')).toContain('item later-c is ready');
    expect(resultJson(report).text).toContain('The shop uses SQLite, with a migration log.');
    expect(said).toContain('menu-a');
    // The new Monitor says what already waits (menu-a's landing), never the landing that already happened.
    await s.saidBy('wake:menu-a finished and wrote its report; landing it is yours to ask for');
    expect(s.script.notifications.filter((n) => /park-b/.test(n)), 'the second session is not woken for park-b').toEqual([]);
    // Point 7: the account of what happened is in the page's words: a brief approval, never "blocked".
    const audience = await s.hand(['audience', '--since', '2000-01-01T00:00:00Z', '--json']);
    const words = (audience.json.workers as { id: string; events: { words: string }[] }[]).find((w) => w.id === 'park-b')!.events.map((e) => e.words);
    expect(words).toEqual(expect.arrayContaining(['brief approval', 'open decision', 'done', 'landing approval', 'landed']));
    expect(words).not.toContain('exited');
  }, 120_000);

  it('drew no permission prompt on any screen, and every tool call came back without an error', () => {
    const all = s.scripts.flatMap((x) => x.calls);
    const notes = s.scripts.flatMap((x) => x.notifications);
    // By the end of the run, no wake ever named a landing (it is past, never a need).
    expect(notes.filter((n) => /\blanded\b/.test(n)), 'no wake for a landing').toEqual([]);
    expect(s.screens.length).toBeGreaterThan(10);
    const prompted = s.promptedScreens();
    expect(prompted, prompted[0]).toHaveLength(0);
    expect(s.screens.filter((screen) => /Deny rule|Allow rule|never matches/.test(screen))).toEqual([]);
    // The one call refused on purpose: the person's setting, denied to the Hand's shell.
    const failed = all.filter((c) => (!c.result || c.result.isError) && c.turn !== 'person:phone');
    expect(failed.map((c) => `${c.turn} ${c.name}: ${c.result?.content ?? 'no result'}`)).toEqual([]);
  });
});
