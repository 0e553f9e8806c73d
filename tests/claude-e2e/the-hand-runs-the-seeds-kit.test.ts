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
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { binDir } from '../helpers/bin-dir.ts';
import { waitFor, waitForEvent } from '../helpers/temp.ts';
import { HandScript, resultJson } from './hand-script.ts';
import { GIT_ID, HAND_SESSION_PATH, HandSession, mockWorkersEnv } from './hand-session-world.ts';
import { kitTurns, SAY } from './hand-kit-turns.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');

const s = new HandSession();
let shop: string;
let site: string;
let checkout: string;
let usageFile: string;
/** One mark per reading of the usage source: the pulse's ticks are counted, not slept through. */
let ticks: string;
let ghLog: string;

const statusOf = (id: string) => s.row(id);
const setUsage = (percent: number) => writeFileSync(usageFile, JSON.stringify({ windows: [{ id: 'five_hour', window: 'session', percent, resets_at: '2099-01-01T00:00:00Z' }] }));

beforeAll(async () => {
  await s.open('hand-kit');
  shop = s.path('shop');
  site = s.path('site');
  makeTestRepo(shop, '# shop\n');
  makeTestRepo(site, '# site\n');
  const origin = s.path('site-origin.git');
  execFileSync('git', ['init', '-q', '--bare', origin]);
  execFileSync('git', ['-C', site, 'remote', 'add', 'origin', origin]);
  execFileSync('git', ['-C', site, 'push', '-q', 'origin', 'main']);
  // The person's kingshand checkout, with a change they have not committed.
  checkout = s.path('kingshand');
  mkdirSync(checkout);
  execFileSync('git', ['init', '-q', '-b', 'main', checkout]);
  writeFileSync(join(checkout, 'package.json'), '{"name":"kingshand","version":"0.1.0"}\n');
  execFileSync('git', ['-C', checkout, 'add', '-A'], { env: { ...process.env, ...GIT_ID } });
  execFileSync('git', ['-C', checkout, 'commit', '-q', '-m', 'Release'], { env: { ...process.env, ...GIT_ID } });
  writeFileSync(join(checkout, 'my-notes.md'), 'mine\n');
  usageFile = s.path('usage.json');
  ticks = s.path('usage-ticks');
  writeFileSync(ticks, '');
  setUsage(41);
  ghLog = s.path('gh.log');
  writeFileSync(ghLog, '');

  const briefs = { split: s.brief('split-1', 'SPLIT-STORIES: divide the checkout stories.'), quick: s.brief('q1', 'ROBOTS-FILE: add a robots file.'), a: s.brief('a1', 'CHANGE-A: add a.txt.'), b: s.brief('b1', 'CHANGE-B: add b.txt.') };
  const commitAndReport = (match: string, id: string, file: string, subject: string) => ({
    match, once: true, steps: [
      { kind: 'bash', command: `echo ${file} > ${file} && git add ${file} && git commit -q -m "${subject}"`, description: subject },
      { kind: 'write', path: s.reportPathOf(id), content: `# Report\n\n${subject}: done.\n` },
      { kind: 'reply', text: 'Done; the report is written.' },
    ],
  });
  const scenario = s.workerScenario([
    { match: 'SPLIT-STORIES', once: true, steps: [
      { kind: 'write', path: s.reportPathOf('split-1'), content: '# Report\n\n## Division\n- R-001 checkout: the payment page\n- R-002 checkout: the receipt e-mail\n\n## Ambiguous\n- Q-001 which currencies?\n' },
      { kind: 'reply', text: 'The division is in my report.' },
    ] },
    commitAndReport('ROBOTS-FILE', 'q1', 'robots.txt', 'Add a robots file'),
    commitAndReport('CHANGE-A', 'a1', 'a.txt', 'Add the a file'),
    commitAndReport('CHANGE-B', 'b1', 'b.txt', 'Add the b file'),
  ]);
  await s.init({ PATH: `${binDir(s.tmp.path, 'bin-gh', { gh: GH_DOUBLE })}:${HAND_SESSION_PATH}`, ...mockWorkersEnv(scenario), GH_TOKEN: 'x', GH_DOUBLE_LOG: ghLog });
  // The person's own settings, before the session: two projects (not yolo), the usage source.
  expect((await s.hand(['annex', shop, '--json'])).code).toBe(0);
  expect((await s.hand(['annex', site, '--posture', 'direct-PR', '--json'])).code).toBe(0);
  const source = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(ticks)}, 'x'); process.stdout.write(fs.readFileSync(${JSON.stringify(usageFile)}))`;
  expect((await s.hand(['usage', 'source', process.execPath, '-e', source, '--json'])).code).toBe(0);
  const { watchCommand, handCommand } = s.kitCommands();
  const script: HandScript = new HandScript(kitTurns({ watchCommand, handCommand, checkout, siteRepo: site, shopRepo: shop, briefs, calls: () => script.calls }));
  await s.startClaude(script);
  await s.atIdleBox();
}, 120_000);

afterAll(async () => {
  await s.close(['split-1', 'q1', 'a1', 'b1']);
}, 90_000);

describe.sequential("the Hand runs the seed's kit in real Claude Code", () => {
  it('setup: arms the Monitor, checks the machine with doctor and says the posture', async () => {
    await s.person(SAY.setup);
    const said = await s.saidBy('person:setup', 90_000);
    const [monitor, doctor] = s.callsOf('person:setup');
    expect(monitor!.result?.content).toMatch(/^Monitor started/);
    expect(doctor!.result?.isError, doctor!.result?.content).toBe(false);
    expect(JSON.parse(doctor!.result!.content).checks.length).toBeGreaterThan(5);
    expect(said).toMatch(/\d+ of \d+ checks pass\. Workers run under posture off in kingshand's sandbox/);
  }, 120_000);

  it('update: refused on a checkout with an uncommitted change, naming it; nothing touched', async () => {
    const head = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    await s.person(SAY.update);
    const said = await s.saidBy('person:update');
    const [update] = s.callsOf('person:update');
    // hand update exits 1 on a refusal: Claude Code gives the Bash call back as an error, with its output.
    expect(update!.result?.content).toContain('"status": "refused"');
    expect(said).toMatch(/^Not updated: .*uncommitted changes \(my-notes\.md\).*nothing was changed\./);
    expect(execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' })).toBe(head);
    expect(existsSync(join(checkout, 'my-notes.md'))).toBe(true);
  }, 60_000);

  it('counsel: one read-only worker divides the story; its done wakes the Hand with close; closed on the word, its item done', async () => {
    await s.person(SAY.counsel);
    await s.saidBy('person:counsel');
    const [, dispatched] = s.callsOf('person:counsel');
    expect(resultJson(dispatched)).toMatchObject({ id: 'split-1', item: 'split-1' });
    expect(await statusOf('split-1')).toMatchObject({ readOnly: true });
    const map = await s.saidBy('wake:split-1 done');
    expect(map).toContain('R-001 checkout: the payment page');
    expect(s.script.notifications.some((n) => n.includes('split-1 finished its read-only report') && n.includes('hand close split-1'))).toBe(true);
    await s.person(SAY.close);
    await s.saidBy('person:close');
    expect(resultJson(s.callsOf('person:close')[0])).toMatchObject({ id: 'split-1', closed: true, itemDone: { id: 'split-1', state: 'done' } });
    expect((await s.hand(['backlog', 'show', 'split-1', '--json'])).json).toMatchObject({ state: 'done' });
  }, 90_000);

  it('parley: a quick dispatch lands as a draft pull request naming the marker', async () => {
    await s.person(SAY.quick);
    await s.saidBy('person:quick');
    await waitFor(async () => (await statusOf('q1'))?.stage === 'done', { what: 'q1 done with its report', timeoutMs: 60_000, intervalMs: 500 });
    await s.person(SAY.landQuick);
    await s.saidBy('person:landQuick');
    const [, approved] = s.callsOf('person:landQuick');
    expect(resultJson(approved)).toMatchObject({ id: 'q1', landed: { draft: true, quick: true } });
    const create = readFileSync(ghLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]).find((c) => c[0] === 'pr' && c[1] === 'create')!;
    expect(create).toContain('--draft');
    expect(create[create.indexOf('--body') + 1]).toMatch(/^PARLEY DISPATCH - NO REVIEW GATE RAN\./);
  }, 120_000);

  it('vigil: the pulse every two seconds; usage crossing into the 60s reaches the Hand as one line', async () => {
    await s.person(SAY.pulse);
    await s.saidBy('person:pulse');
    const [stopped, armed] = s.callsOf('person:pulse');
    expect(stopped!.result?.isError, stopped!.result?.content).toBe(false);
    expect(armed!.result?.content).toMatch(/^Monitor started/);
    // The re-armed pulse has read usage twice (its baseline and one more) before usage moves.
    const before = readFileSync(ticks, 'utf8').length;
    await waitFor(() => readFileSync(ticks, 'utf8').length - before >= 2 || undefined, { what: 'two readings of usage by the re-armed pulse', timeoutMs: 20_000, intervalMs: 100 });
    setUsage(63);
    // Heard already, or later.
    const pulsed = () => s.script.notifications.some((n) => n.includes('pulse: usage crossed into the 60s'));
    if (!pulsed()) await waitForEvent((l) => s.fake.onRequest(l), pulsed, { what: 'the pulse line for the band crossed', timeoutMs: 30_000 });
  }, 60_000);

  it('the second landing in one repository: refused as it stands, said to apply cleanly; rebased on the person\'s word and landed', async () => {
    await s.person(SAY.two);
    await s.saidBy('person:two');
    for (const id of ['a1', 'b1']) await waitFor(async () => (await statusOf(id))?.stage === 'done', { what: `${id} done with its report`, timeoutMs: 60_000, intervalMs: 500 });
    await s.person(SAY.landA);
    await s.saidBy('person:landA');
    await s.person(SAY.landB);
    const said = await s.saidBy('person:landB');
    const [refused] = s.callsOf('person:landB');
    expect(refused!.result?.isError).toBe(true);
    expect(said).toMatch(/applies cleanly onto main/);
    await s.person(SAY.rebaseB);
    await s.saidBy('person:rebaseB');
    const subjects = execFileSync('git', ['-C', shop, 'log', '--format=%s', 'main'], { encoding: 'utf8' }).trim().split('\n');
    expect(subjects.slice(0, 2)).toEqual(['Add the b file', 'Add the a file']);
    const parents = execFileSync('git', ['-C', shop, 'log', '--format=%P', 'main'], { encoding: 'utf8' }).trim().split('\n');
    expect(parents.filter((p) => p.trim().split(' ').length > 1), 'no merge commit on main').toEqual([]);
  }, 150_000);

  it('drew no permission prompt on any screen; every call but the two refusals came back without an error', () => {
    const prompted = s.promptedScreens();
    expect(prompted, prompted[0]).toHaveLength(0);
    const expected = new Set(['person:update', 'person:landB']);
    const failed = s.script.calls.filter((c) => (!c.result || c.result.isError) && !expected.has(c.turn));
    expect(failed.map((c) => `${c.turn} ${c.name}: ${c.result?.content ?? 'no result'}`)).toEqual([]);
  });
});
