/**
 * Answering from the phone (issue 42 items 2 and 3), against a real daemon, tmux and mock
 * worker, an ntfy double on 127.0.0.1 and a second HTTP client acting as the phone through the
 * configured Host. A blocked worker's notification carries its question, up to three answers as
 * ntfy buttons and a view link; each button's URL holds a capability for that one answer, never
 * the page's token. Using it answers as `hand answer` does and is journaled with its origin.
 * ATTACKS, each refused with nothing typed: a Host not configured, a forged and a truncated
 * capability, one used on another worker's address, two phones tapping at once (exactly one
 * answer typed), a replay, an answer after the dialog changed, and a tap after the daemon
 * restarted. And Chromium at 390 px through the configured Host: the view link opens the worker's
 * page on the question and its options (issue 42 item 4). A parked worker's notification carries
 * its `Waiting on:` options, and a tap runs `decide` once (item 5). (The expiry is in capabilities-expire-and-belong-to-their-run.test.ts, on a clock.)
 * On the old code a notification had no actions and /phone/ was a 403 without a session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { dispatchMock, waitUntil } from '../helpers/review-steps.ts';
import { ntfyActionsOf, ntfyButtonsOf, ntfyDouble, phoneRequest, type NtfyDouble, type NtfyHit } from '../helpers/phone-client.ts';
import { waitFor } from '../helpers/temp.ts';
import { CAPABILITY_KEY_FILE } from '../../actors/phone/capability.ts';
import { launchChromium } from '../helpers/browser.ts';

let world: CliWorld;
let ntfy: NtfyDouble;
let port: number;
let token: string;
let publicHost: string;

beforeAll(async () => {
  world = await makeCliWorld('phone-answer');
  ntfy = await ntfyDouble();
  expect((await world.hand(['annex', world.repo, '--yolo'])).code).toBe(0);
  expect((await world.hand(['notify', 'add', 'ntfy', ntfy.url, '--allow-loopback'])).code).toBe(0);
  const r = await world.hand(['review', '--json']);
  port = r.json.port;
  token = new URL(r.json.url).searchParams.get('token')!;
  publicHost = `phone.test:${port}`;
  expect((await world.hand(['review', '--public-url', `http://${publicHost}`])).code).toBe(0);
  await dispatchMock(world.hand, 'q1', world.repo, world.brief('q1', 'MODE:ask which database'));
}, 60_000);

afterAll(async () => {
  await world?.cleanup();
  await ntfy?.close();
});

const blockedHits = () => ntfy.hits.filter((h) => String(h.headers.title).startsWith('q1') && String(h.headers.title).endsWith(': blocked'));
const nthBlocked = (n: number) => waitFor(() => blockedHits()[n - 1], { what: `notification ${n} of q1 blocked`, timeoutMs: 20_000 });
const screen = async () => (await world.hand(['read', 'q1'])).stdout;
const tap = (url: string, host = publicHost) => phoneRequest(url, { port, host });
/** A tap refused with this status and code, its message saying why, and nothing typed: the screen is as it was. */
async function refusedWithNothingTyped(url: string, status: number, code: string, says: string): Promise<void> {
  const before = await screen();
  const r = await tap(url);
  expect([r.status, r.json.error.code]).toEqual([status, code]);
  expect(r.json.error.message).toContain(says);
  expect(await screen()).toBe(before);
}
let first: NtfyHit;

describe("a notification's answer is typed once and every misuse is refused", () => {
  it('carries the question, its answers as buttons and a view link, none of them the standing token', async () => {
    first = await nthBlocked(1);
    expect(first.body).toContain('Which database should the fake project use?');
    const actions = ntfyActionsOf(first);
    expect(actions.map((a) => a.label)).toEqual(['1. SQLite', '2. Postgres', '3. None']);
    for (const a of actions) expect(a.url.startsWith(`http://${publicHost}/phone/q1/`), a.url).toBe(true);
    expect(String(first.headers.click)).toMatch(new RegExp(`^http://${publicHost}/phone/q1/`));
    const key = readFileSync(join(world.home, CAPABILITY_KEY_FILE), 'utf8').trim();
    expect(statSync(join(world.home, CAPABILITY_KEY_FILE)).mode & 0o777).toBe(0o600);
    const all = JSON.stringify(first);
    expect(all).not.toContain(token);
    expect(all).not.toContain(key);
    // The delivery log (which the Hand may read) says the answers went out, never their capabilities.
    const logged = (await world.hand(['notify', 'log', '--json'])).stdout;
    expect(logged).toContain('(capability withheld)');
    expect(logged).not.toContain('/phone/q1/');
  });

  it("the view link signs in once on the worker's page, through the public Host", async () => {
    const view = String(first.headers.click);
    const opened = await phoneRequest(view, { port, method: 'GET' });
    expect(opened.status, opened.body).toBe(200);
    expect(opened.body).toContain('url=/w/q1');
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    const page = await phoneRequest(`http://${publicHost}/w/q1`, { port, method: 'GET', headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-action="answer"');
    const again = await phoneRequest(view, { port, method: 'GET' });
    expect([again.status, again.json.error.code]).toEqual([409, 'capability-used']);
  });

  it('a Host not configured, a forged, a truncated capability and one for another worker are refused, nothing typed', async () => {
    const before = await screen();
    const [one] = ntfyActionsOf(first);
    const url = one!.url;
    const foreign = await tap(url, `evil.test:${port}`);
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.message).toContain('unexpected Host');

    const forged = await tap(url.slice(0, -2) + (url.endsWith('AA') ? 'BB' : 'AA'));
    expect([forged.status, forged.json.error.code]).toEqual([403, 'capability-forged']);
    expect(forged.json.error.message).toContain('Nothing was typed');
    const truncated = await tap(url.slice(0, url.indexOf('/phone/q1/') + 30));
    expect([truncated.status, truncated.json.error.code]).toEqual([403, 'capability-forged']);
    const otherWorker = await tap(url.replace('/phone/q1/', '/phone/q2/'));
    expect([otherWorker.status, otherWorker.json.error.code]).toEqual([403, 'capability-for-another-worker']);
    // A GET (a link preview, a prefetch) shows what the link does and answers nothing.
    const preview = await phoneRequest(url, { port, method: 'GET', headers: { accept: 'text/html' } });
    expect(preview.status).toBe(200);
    expect(preview.body).toContain('<form method="post">');
    expect(await screen()).toBe(before);
  });

  it('two phones tapping at once: exactly one answer is typed; a replay is refused', async () => {
    const [, postgres, none] = ntfyActionsOf(first);
    const both = await Promise.all([tap(postgres!.url), tap(none!.url)]);
    const won = both.find((r) => r.status === 200)!;
    const lost = both.find((r) => r.status !== 200)!;
    expect(won, JSON.stringify(both.map((r) => r.json))).toBeDefined();
    expect([lost.status, lost.json.error.code]).toEqual([409, 'capability-answered']);
    expect(won.json.result.message).toMatch(/q1: answered [23]/);
    await waitUntil(world.hand, 'q1', 'settled');
    const after = await screen();
    expect(after.match(/you chose/g)?.length, after).toBe(1);

    const replay = await tap((won === both[0] ? postgres : none)!.url);
    expect([replay.status, replay.json.error.code]).toEqual([409, 'capability-used']);

    const db = new Database(join(world.home, 'fleet.db'), { readonly: true });
    try {
      const rows = db.prepare("SELECT event_json FROM journal WHERE actor_id = 'worker:q1' AND event_json LIKE '%PHONE_%'").all() as { event_json: string }[];
      const events = rows.map((r) => JSON.parse(r.event_json));
      expect(events.filter((e) => e.type === 'PHONE_ANSWER')).toEqual([expect.objectContaining({ via: 'notification', host: publicHost, option: won === both[0] ? 2 : 3 })]);
      expect(events.filter((e) => e.type === 'PHONE_REFUSED').map((e) => e.code)).toEqual(expect.arrayContaining(['capability-answered', 'capability-used']));
    } finally {
      db.close();
    }
  }, 30_000);

  it('an answer whose dialog changed (another answer won, the worker moved on) is refused, nothing typed', async () => {
    expect((await world.hand(['send', 'q1', 'MODE:ask which database'])).code).toBe(0);
    const second = await nthBlocked(2);
    const fp = (await world.hand(['read', 'q1', '--json'])).json.dialog.fingerprint;
    // The person answered at the computer; then the worker asks something else.
    expect((await world.hand(['answer', 'q1', '1', '--fingerprint', fp])).code).toBe(0);
    await waitUntil(world.hand, 'q1', 'settled');
    expect((await world.hand(['send', 'q1', 'MODE:bash[[echo from-the-phone]]'])).code).toBe(0);
    await nthBlocked(3);
    await refusedWithNothingTyped(ntfyActionsOf(second)[1]!.url, 409, 'dialog-changed', 'Nothing was typed');
  }, 30_000);

  it('Chromium at 390 px through the public Host: the view link opens on the question and its options, large, the screen below, no sideways scroll; a tap answers', async () => {
    const third = await nthBlocked(3);
    const browser = await launchChromium(['--host-resolver-rules=MAP phone.test 127.0.0.1']);
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(String(third.headers.click));
      await page.waitForURL(`http://${publicHost}/w/q1`, { timeout: 10_000 });
      const yes = page.locator('.answer-first button[data-action="answer"][data-option="1"]');
      await yes.waitFor({ timeout: 10_000 });
      const button = (await yes.boundingBox())!;
      const term = (await page.locator('#screen').boundingBox())!;
      expect(button.y + button.height, 'the first option is on the first screenful').toBeLessThanOrEqual(844);
      expect(button.height).toBeGreaterThanOrEqual(44);
      expect(button.width, 'an option spans the phone').toBeGreaterThan(300);
      expect(term.y, 'the screen is below the options').toBeGreaterThan(button.y);
      for (const width of [360, 390, 414]) {
        await page.setViewportSize({ width, height: 800 });
        expect(Number(await page.evaluate('document.documentElement.scrollWidth')), `no sideways scroll at ${width} px`).toBeLessThanOrEqual(width);
      }
      await page.waitForSelector('#live.on', { timeout: 10_000 });
      await yes.click();
      await expect.poll(() => page.textContent('#toast'), { timeout: 15_000 }).toContain('answered 1');
      await waitUntil(world.hand, 'q1', 'settled');
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('a tap after the daemon restarted is refused as from an earlier run, nothing typed', async () => {
    const third = await nthBlocked(3);
    expect((await world.hand(['daemon', 'stop'])).code).toBe(0);
    port = (await world.hand(['review', '--json'])).json.port;
    await refusedWithNothingTyped(ntfyActionsOf(third)[0]!.url, 410, 'capability-from-an-earlier-run', 'before the daemon restarted');
  }, 30_000);

  it("a parked worker's notification carries its Waiting on options; a tap runs decide once, and the other option is refused", async () => {
    await dispatchMock(world.hand, 'p1', world.repo, world.brief('p1', 'MODE:park'));
    const parked = await waitFor(() => ntfy.hits.find((h) => String(h.headers.title).startsWith('p1') && String(h.headers.title).endsWith(': parked')), { what: 'p1 parked notification', timeoutMs: 20_000 });
    const actions = ntfyActionsOf(parked);
    expect(actions.map((a) => a.label)).toEqual(['SQLite', 'Postgres']);
    // Two answers leave ntfy a button to spare: the page's link.
    expect(ntfyButtonsOf(parked).map((b) => [b.kind, b.label])).toEqual([['http', 'SQLite'], ['http', 'Postgres'], ['view', 'Open page']]);
    expect(ntfyButtonsOf(parked)[2]!.url).toBe(String(parked.headers.click));
    const both = await Promise.all([tap(actions[1]!.url), tap(actions[0]!.url)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = both.find((r) => r.status === 200)!;
    expect(won.json.result).toMatchObject({ state: 'answered', worker: 'p1' });
    const answer = won.json.result.answer as string;
    const report = join(world.home, 'workers', 'p1', 'out', 'report.md');
    await waitFor(() => readFileSync(report, 'utf8').includes(`using ${answer} as decided`) || undefined, { what: "p1's report after the phone's answer", timeoutMs: 20_000 });
    expect(both.find((r) => r.status === 409)!.json.error.code).toBe('capability-answered');
    const db = new Database(join(world.home, 'fleet.db'), { readonly: true });
    try {
      const rows = db.prepare("SELECT event_json FROM journal WHERE actor_id = 'worker:p1' AND event_json LIKE '%PHONE_DECIDE%'").all() as { event_json: string }[];
      expect(rows.map((r) => JSON.parse(r.event_json))).toEqual([expect.objectContaining({ via: 'notification', host: publicHost })]);
    } finally {
      db.close();
    }
  }, 40_000);
});
