/**
 * Issue 40's kit, with the REAL Claude Code 2.1.332 as the Hand in a `hand init` workspace (the
 * fake model scripting the Hand's side, tests/claude-e2e/hand-kit-turns.ts) and mock workers on
 * tmux behind it. One Claude start; the tests run in order.
 *
 * The person asks for setup (doctor, the posture said), an update (refused on a checkout with an
 * uncommitted change, nothing touched), a story divided by one read-only worker and closed, a
 * quick dispatch whose pull request can only be a draft, the pulse every two seconds (a line when
 * usage crosses a band), and two workers in one repository, the second landed after a rebase the
 * person approved. No permission prompt on any screen; each tool result is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { requireClaudeBinary } from '../harness/claude-binary.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { launchInTmux, type TmuxPane } from '../harness/claude-tmux.ts';
import { showsIdleBox } from '../harness/real-claude.ts';
import { handRunner, type HandRunner } from '../helpers/hand-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { binDir } from '../helpers/bin-dir.ts';
import { makeTempDir, waitFor, waitForEvent } from '../helpers/temp.ts';
import { endHandSession } from './e2e-world.ts';
import { HandScript, resultJson, type HandCall } from './hand-script.ts';
import { personTurns, wakeTurns, SAY } from './hand-kit-turns.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');
const PROMPT_MARKERS = ['Do you want to proceed?', 'Do you want to make this edit', 'New MCP server found', 'Use this MCP server', 'requires approval', 'Do you want to allow'];
const GIT_ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

let fake: FakeAnthropic;
let tmp: { path: string; cleanup: () => void };
let pane: TmuxPane | null = null;
let hand: HandRunner;
let state: string;
let shop: string;
let site: string;
let checkout: string;
let usageFile: string;
/** One mark per reading of the usage source: the pulse's ticks are counted, not slept through. */
let ticks: string;
let ghLog: string;
let script: HandScript;
const screens: string[] = [];
let watching = true;

function saidBy(key: string, timeoutMs = 60_000): Promise<string> {
  const done = () => script.said.get(key);
  if (done()) return Promise.resolve(done()!);
  return waitForEvent((l) => fake.onRequest(l), () => done() !== undefined, { what: `the Hand to finish its turn for ${key} (started: ${script.started.join(', ')})`, timeoutMs }).then(() => done()!);
}

async function person(words: string): Promise<void> {
  await pane!.type(words);
  await pane!.waitForScreen((s) => s.includes(words.slice(0, 40)), `the person's words "${words}" in the Hand's box`);
  await pane!.keys('Enter');
}

const callsOf = (turn: string): HandCall[] => script.calls.filter((c) => c.turn === turn);
const statusOf = async (id: string) => (await hand(['status', id, '--json'])).json?.[0];
const setUsage = (percent: number) => writeFileSync(usageFile, JSON.stringify({ windows: [{ id: 'five_hour', window: 'session', percent, resets_at: '2099-01-01T00:00:00Z' }] }));

beforeAll(async () => {
  const bin = requireClaudeBinary();
  tmp = makeTempDir('hand-kit');
  const home = join(tmp.path, 'home');
  const ws = join(tmp.path, 'ws');
  state = join(tmp.path, 'state');
  shop = join(tmp.path, 'shop');
  site = join(tmp.path, 'site');
  mkdirSync(home);
  makeTestRepo(shop, '# shop\n');
  makeTestRepo(site, '# site\n');
  const origin = join(tmp.path, 'site-origin.git');
  execFileSync('git', ['init', '-q', '--bare', origin]);
  execFileSync('git', ['-C', site, 'remote', 'add', 'origin', origin]);
  execFileSync('git', ['-C', site, 'push', '-q', 'origin', 'main']);
  // The person's kingshand checkout, with a change they have not committed.
  checkout = join(tmp.path, 'kingshand');
  mkdirSync(checkout);
  execFileSync('git', ['init', '-q', '-b', 'main', checkout]);
  writeFileSync(join(checkout, 'package.json'), '{"name":"kingshand","version":"0.1.0"}\n');
  execFileSync('git', ['-C', checkout, 'add', '-A'], { env: { ...process.env, ...GIT_ID } });
  execFileSync('git', ['-C', checkout, 'commit', '-q', '-m', 'Release'], { env: { ...process.env, ...GIT_ID } });
  writeFileSync(join(checkout, 'my-notes.md'), 'mine\n');
  usageFile = join(tmp.path, 'usage.json');
  ticks = join(tmp.path, 'usage-ticks');
  writeFileSync(ticks, '');
  setUsage(41);
  ghLog = join(tmp.path, 'gh.log');
  writeFileSync(ghLog, '');

  const brief = (name: string, goal: string) => {
    const path = join(tmp.path, `${name}.md`);
    writeFileSync(path, `# ${name}\n\n## Goal\n\n${goal}\n\n## Read first\n\nNothing.\n`);
    return path;
  };
  const briefs = { split: brief('split-1', 'SPLIT-STORIES: divide the checkout stories.'), quick: brief('q1', 'ROBOTS-FILE: add a robots file.'), a: brief('a1', 'CHANGE-A: add a.txt.'), b: brief('b1', 'CHANGE-B: add b.txt.') };
  const report = (id: string) => join(state, 'workers', id, 'out', 'report.md');
  const commitAndReport = (match: string, id: string, file: string, subject: string) => ({
    match, once: true, steps: [
      { kind: 'bash', command: `echo ${file} > ${file} && git add ${file} && git commit -q -m "${subject}"`, description: subject },
      { kind: 'write', path: report(id), content: `# Report\n\n${subject}: done.\n` },
      { kind: 'reply', text: 'Done; the report is written.' },
    ],
  });
  const scenario = join(tmp.path, 'workers-scenario.json');
  writeFileSync(scenario, JSON.stringify({
    turns: [
      { match: 'SPLIT-STORIES', once: true, steps: [
        { kind: 'write', path: report('split-1'), content: '# Report\n\n## Division\n- R-001 checkout: the payment page\n- R-002 checkout: the receipt e-mail\n\n## Ambiguous\n- Q-001 which currencies?\n' },
        { kind: 'reply', text: 'The division is in my report.' },
      ] },
      commitAndReport('ROBOTS-FILE', 'q1', 'robots.txt', 'Add a robots file'),
      commitAndReport('CHANGE-A', 'a1', 'a.txt', 'Add the a file'),
      commitAndReport('CHANGE-B', 'b1', 'b.txt', 'Add the b file'),
    ],
  }));
  fake = await startFakeAnthropic({ suggestion: null, keepRawBodies: true, respond: (s, seq) => script.respond(s, seq) });
  const path = `${binDir(tmp.path, 'bin-gh', { gh: GH_DOUBLE })}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
  const env = {
    ...claudeTestEnv({ home, baseUrl: fake.url, renderer: 'fullscreen', path }),
    KH_MOCK_TICK_MS: '200', KH_MOCK_SCENARIO: scenario, KH_MOCK_PERMISSION_MODE: 'auto', KH_MOCK_RUN_BASH: '1',
    GH_TOKEN: 'x', GH_DOUBLE_LOG: ghLog, ...GIT_ID,
  };
  hand = handRunner(state, env, 60_000);
  expect((await hand(['init', ws, '--json'])).code).toBe(0);
  // The person's own settings, before the session: two projects (not yolo), the usage source.
  expect((await hand(['annex', shop, '--json'])).code).toBe(0);
  expect((await hand(['annex', site, '--posture', 'direct-PR', '--json'])).code).toBe(0);
  const source = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(ticks)}, 'x'); process.stdout.write(fs.readFileSync(${JSON.stringify(usageFile)}))`;
  expect((await hand(['usage', 'source', process.execPath, '-e', source, '--json'])).code).toBe(0);
  const watchCommand = /Monitor with `([^`]+)`/.exec(readFileSync(join(ws, 'CLAUDE.md'), 'utf8'))![1]!;
  const handCommand = watchCommand.replace(/ watch --needs-you.*$/, '');
  script = new HandScript((t) => (t.kind === 'person' ? personTurns(t.text, { watchCommand, handCommand, checkout, siteRepo: site, shopRepo: shop, briefs, calls: () => script.calls }) : wakeTurns(t.text)));
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
  await endHandSession({ pane, hand, state, fake, tmp }, ['split-1', 'q1', 'a1', 'b1']);
}, 90_000);

describe.sequential("the Hand runs the seed's kit in real Claude Code", () => {
  it('setup: arms the Monitor, checks the machine with doctor and says the posture', async () => {
    await person(SAY.setup);
    const said = await saidBy('person:setup', 90_000);
    const [monitor, doctor] = callsOf('person:setup');
    expect(monitor!.result?.content).toMatch(/^Monitor started/);
    expect(doctor!.result?.isError, doctor!.result?.content).toBe(false);
    expect(JSON.parse(doctor!.result!.content).checks.length).toBeGreaterThan(5);
    expect(said).toMatch(/\d+ of \d+ checks pass\. Workers run under posture off in kingshand's sandbox/);
  }, 120_000);

  it('update: refused on a checkout with an uncommitted change, naming it; nothing touched', async () => {
    const head = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    await person(SAY.update);
    const said = await saidBy('person:update');
    const [update] = callsOf('person:update');
    // hand update exits 1 on a refusal: Claude Code gives the Bash call back as an error, with its output.
    expect(update!.result?.content).toContain('"status": "refused"');
    expect(said).toMatch(/^Not updated: .*uncommitted changes \(my-notes\.md\).*nothing was changed\./);
    expect(execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' })).toBe(head);
    expect(existsSync(join(checkout, 'my-notes.md'))).toBe(true);
  }, 60_000);

  it('counsel: one read-only worker divides the story; its done wakes the Hand with close; closed on the word, its item done', async () => {
    await person(SAY.counsel);
    await saidBy('person:counsel');
    const [, dispatched] = callsOf('person:counsel');
    expect(resultJson(dispatched)).toMatchObject({ id: 'split-1', item: 'split-1' });
    expect(await statusOf('split-1')).toMatchObject({ readOnly: true });
    const map = await saidBy('wake:split-1 done');
    expect(map).toContain('R-001 checkout: the payment page');
    expect(script.notifications.some((n) => n.includes('split-1 finished its read-only report') && n.includes('hand close split-1'))).toBe(true);
    await person(SAY.close);
    await saidBy('person:close');
    expect(resultJson(callsOf('person:close')[0])).toMatchObject({ id: 'split-1', closed: true, itemDone: { id: 'split-1', state: 'done' } });
    expect((await hand(['backlog', 'show', 'split-1', '--json'])).json).toMatchObject({ state: 'done' });
  }, 90_000);

  it('parley: a quick dispatch lands as a draft pull request naming the marker', async () => {
    await person(SAY.quick);
    await saidBy('person:quick');
    await waitFor(async () => (await statusOf('q1'))?.stage === 'done', { what: 'q1 done with its report', timeoutMs: 60_000, intervalMs: 500 });
    await person(SAY.landQuick);
    await saidBy('person:landQuick');
    const [, approved] = callsOf('person:landQuick');
    expect(resultJson(approved)).toMatchObject({ id: 'q1', landed: { draft: true, quick: true } });
    const create = readFileSync(ghLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]).find((c) => c[0] === 'pr' && c[1] === 'create')!;
    expect(create).toContain('--draft');
    expect(create[create.indexOf('--body') + 1]).toMatch(/^PARLEY DISPATCH - NO REVIEW GATE RAN\./);
  }, 120_000);

  it('vigil: the pulse every two seconds; usage crossing into the 60s reaches the Hand as one line', async () => {
    await person(SAY.pulse);
    await saidBy('person:pulse');
    const [stopped, armed] = callsOf('person:pulse');
    expect(stopped!.result?.isError, stopped!.result?.content).toBe(false);
    expect(armed!.result?.content).toMatch(/^Monitor started/);
    // The re-armed pulse has read usage twice (its baseline and one more) before usage moves.
    const before = readFileSync(ticks, 'utf8').length;
    await waitFor(() => readFileSync(ticks, 'utf8').length - before >= 2 || undefined, { what: 'two readings of usage by the re-armed pulse', timeoutMs: 20_000, intervalMs: 100 });
    setUsage(63);
    // Heard already, or later.
    const pulsed = () => script.notifications.some((n) => n.includes('pulse: usage crossed into the 60s'));
    if (!pulsed()) await waitForEvent((l) => fake.onRequest(l), pulsed, { what: 'the pulse line for the band crossed', timeoutMs: 30_000 });
  }, 60_000);

  it('the second landing in one repository: refused as it stands, said to apply cleanly; rebased on the person\'s word and landed', async () => {
    await person(SAY.two);
    await saidBy('person:two');
    for (const id of ['a1', 'b1']) await waitFor(async () => (await statusOf(id))?.stage === 'done', { what: `${id} done with its report`, timeoutMs: 60_000, intervalMs: 500 });
    await person(SAY.landA);
    await saidBy('person:landA');
    await person(SAY.landB);
    const said = await saidBy('person:landB');
    const [refused] = callsOf('person:landB');
    expect(refused!.result?.isError).toBe(true);
    expect(said).toMatch(/applies cleanly onto main/);
    await person(SAY.rebaseB);
    await saidBy('person:rebaseB');
    const subjects = execFileSync('git', ['-C', shop, 'log', '--format=%s', 'main'], { encoding: 'utf8' }).trim().split('\n');
    expect(subjects.slice(0, 2)).toEqual(['Add the b file', 'Add the a file']);
    const parents = execFileSync('git', ['-C', shop, 'log', '--format=%P', 'main'], { encoding: 'utf8' }).trim().split('\n');
    expect(parents.filter((p) => p.trim().split(' ').length > 1), 'no merge commit on main').toEqual([]);
  }, 150_000);

  it('drew no permission prompt on any screen; every call but the two refusals came back without an error', () => {
    const prompted = screens.filter((s) => PROMPT_MARKERS.some((m) => s.includes(m)));
    expect(prompted, prompted[0]).toHaveLength(0);
    const expected = new Set(['person:update', 'person:landB']);
    const failed = script.calls.filter((c) => (!c.result || c.result.isError) && !expected.has(c.turn));
    expect(failed.map((c) => `${c.turn} ${c.name}: ${c.result?.content ?? 'no result'}`)).toEqual([]);
  });
});
