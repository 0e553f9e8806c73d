/**
 * The review page in a real headless Chromium (Debian's package, driven by playwright-core)
 * against a real daemon, tmux and mock worker. One world carries a worker through both gates:
 * the page opens with the token; its Markdown cannot run script; requests without the token or
 * from another origin get 403 and change nothing; the brief is approved from the page and the
 * question the worker then draws appears on the open page by itself; the landing gate is
 * approved from the page and the worker lands (branch merged, worktree gone); an open decision of
 * another worker is answered from its page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';
import { commitAndReport, dispatchMock, openReviewAtDesk, waitUntil, type ReviewUrl } from '../helpers/review-steps.ts';
import { signInWithToken } from '../helpers/review-session.ts';

const SCRIPT_BAIT = [
  '<script>window.__khPwned = "script"</script>',
  '<img src="x" onerror="window.__khPwned = \'img\'">',
  '[a link](javascript:window.__khPwned=\'link\')',
].join('\n\n');

let world: CliWorld;
let browser: Browser;
let context: BrowserContext;
let review: ReviewUrl;
let dispatched: Record<string, any>;

beforeAll(async () => {
  world = await makeCliWorld('review-page');
  expect((await world.hand(['annex', world.repo, '--posture', 'local-only'])).code).toBe(0);
  const brief = join(world.root, 'w1.md');
  writeFileSync(brief, `# Brief w1\n\n## Read first\n\nNothing.\n\n## Task\n\nAsk which database to use: MODE:ask\n\n${SCRIPT_BAIT}\n`);
  dispatched = await dispatchMock(world.hand, 'w1', world.repo, brief, { KH_MOCK_RUN_BASH: '1' });
  expect(dispatched.stage).toBe('gate.awaitingBriefApproval');
  ({ review, browser, context } = await openReviewAtDesk(world.hand));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.cleanup();
});

/** A page on another origin (localhost, another port) with a form that posts to the review page. */
async function attackerSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><form method="post" action="${target}/api/approve" enctype="text/plain"><input name='{"id":"w1","x":"' value='"}'><button>go</button></form>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function statusWithHost(url: string, host: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host, cookie } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const stage = async (id: string) => (await world.hand(['status', id, '--json'])).json[0].stage as string;

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${review.origin}${path}`);
  await page.waitForSelector('#live.on', { timeout: 10_000 });
  return page;
}

// Several CLI steps each, on a shared 2-core machine: bounds with room for load.
describe('the review page', () => {
  it('opens with the token from hand review, which opens a session kept in an HttpOnly SameSite=Strict cookie, not the URL', async () => {
    const page = await context.newPage();
    await page.goto(review.url);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    await expect(page.title()).resolves.toMatch(/waiting on you/);
    const cookie = (await context.cookies()).find((c) => c.name === 'hand_review');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.value, 'the cookie is a session id, never the standing token').toMatch(/^[0-9a-f]{64}$/);
    expect(cookie!.value).not.toBe(review.token);
    expect(await page.locator('meta[name="hand-token"]').getAttribute('content'), "the page's header token is the session's").not.toBe(review.token);
    const row = page.locator('#fleet .group-attention li[data-id="w1"]');
    await expect(row.locator('.badge').textContent()).resolves.toBe('brief approval');
    await expect(row.textContent()).resolves.toContain('local-only');
    await page.close();
  });

  it('hand review --open: the private file it hands the browser signs a fresh browser in, once', async () => {
    const seen = join(world.root, 'opened.txt');
    const opener = join(world.root, 'record-url');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(`${seen}.tmp`)} && mv ${JSON.stringify(`${seen}.tmp`)} ${JSON.stringify(seen)}\n`);
    chmodSync(opener, 0o755);
    expect((await world.hand(['review', '--open'], { env: { HAND_BROWSER: opener } })).code).toBe(0);
    const fileUrl = await waitFor(() => (existsSync(seen) ? readFileSync(seen, 'utf8') : undefined), { what: 'the opener to be handed the file', timeoutMs: 10_000 });
    expect(fileUrl).toMatch(/^file:\/\/\//);
    const fresh = await browser.newContext();
    try {
      const page = await fresh.newPage();
      // The file posts its code, the answer sets the session and moves on to the fleet by itself.
      await page.goto(fileUrl);
      await page.waitForURL(`${review.origin}/`, { timeout: 10_000 });
      await page.waitForSelector('#live.on', { timeout: 10_000 });
      await expect(page.title()).resolves.toMatch(/waiting on you/);
      const cookie = (await fresh.cookies()).find((c) => c.name === 'hand_review');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(cookie!.value).not.toBe(review.token);
      // The file went with its code; a second browser opening the same address gets nothing.
      const again = await (await browser.newContext()).newPage();
      const res = await again.goto(fileUrl).catch((err: Error) => err);
      expect(res instanceof Error || res?.status() !== 200, 'the file is gone').toBe(true);
      await again.context().close();
    } finally {
      await fresh.close();
    }
  });

  it('renders a brief with <script>, onerror and javascript: links inert', async () => {
    const page = await open('/w/w1');
    const brief = page.locator('section[aria-labelledby="h-brief"] .md');
    await expect(brief.textContent()).resolves.toContain('<script>window.__khPwned');
    expect(await brief.locator('script, img, a[href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate('window.__khPwned')).toBeUndefined();
    await page.close();
  });

  it('refuses requests without the token or from another origin with 403, and changes nothing', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${review.origin}/api/approve`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ id: 'w1' }) });
    const session = await signInWithToken(review.origin, review.token);
    const cookie = session.cookie;
    expect((await fetch(`${review.origin}/`)).status).toBe(403);
    expect((await fetch(`${review.origin}/w/w1`, { headers: { cookie: 'hand_review=wrong' } })).status).toBe(403);
    expect((await post({ origin: review.origin })).status).toBe(403); // no cookie, no token
    expect((await post({ cookie, origin: review.origin })).status).toBe(403); // cookie but no token header
    expect((await post({ cookie, 'x-hand-token': review.token, origin: review.origin })).status).toBe(403); // the standing token is no header token
    expect((await post({ cookie, 'x-hand-token': session.csrf, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ cookie, 'x-hand-token': session.csrf, origin: review.origin, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post({ cookie, 'x-hand-token': session.csrf })).status).toBe(403); // no Origin at all
    // DNS rebinding: the right cookie, but a Host the page was not bound as (fetch cannot set Host).
    expect(await statusWithHost(`${review.origin}/`, 'attacker.example', cookie)).toBe(403);

    // A real page on another site posting a form at the page (classic CSRF), in the same browser
    // that holds the session cookie: SameSite=Strict keeps the cookie home, and the post is refused.
    const attacker = await attackerSite(review.origin);
    try {
      const other = await context.newPage();
      await other.goto(attacker.url);
      const [response] = await Promise.all([other.waitForEvent('response', (r) => r.url().endsWith('/api/approve')), other.getByRole('button', { name: 'go' }).click()]);
      expect(response.status()).toBe(403);
      await other.close();
    } finally {
      await attacker.close();
    }
    expect(await stage('w1')).toBe('gate.awaitingBriefApproval');
  });

  it("approves the brief from the page, and the worker's question appears on the open page live", async () => {
    const fleet = await open('/');
    const page = await open('/w/w1');
    await page.getByRole('button', { name: 'Approve brief' }).click();
    await page.locator('#screen', { hasText: 'Which database should the fake project use?' }).waitFor({ timeout: 30_000 });
    await page.locator('#condition', { hasText: /^blocked/ }).waitFor({ timeout: 10_000 });
    await expect(page.title()).resolves.toMatch(/^w1 — blocked/);
    // The screen keeps its colours: spans with the agent's colours, not flat text.
    expect(await page.locator('#screen span[style*="color"]').count()).toBeGreaterThan(0);
    // The fleet page, open all along, moved the worker under "Waiting on you" with its question.
    await fleet.locator('#fleet .group-attention li[data-id="w1"] .badge', { hasText: /^blocked/ }).waitFor({ timeout: 10_000 });
    await fleet.locator('#fleet li[data-id="w1"] .ask', { hasText: 'Which database should the fake project use?' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('#ask').textContent()).resolves.toBe('Which database should the fake project use?');
    await fleet.close();
    await page.close();
  }, 120_000);

  it('approves the landing gate from the page: the branch is merged and the worktree is gone', async () => {
    expect((await world.hand(['keys', 'w1', 'enter'])).code).toBe(0); // answer the question (first option)
    await waitUntil(world.hand, 'w1', 'settled');
    await commitAndReport(world.hand, 'w1', dispatched.reportPath, 'echo feature > feature.txt && git add feature.txt && git commit -q -m "Add the feature file"');
    // A report with script in it is shown, never run.
    writeFileSync(dispatched.reportPath, `# Report\n\nAdded feature.txt.\n\n${SCRIPT_BAIT}\n`);
    const land = await world.hand(['land', 'w1', '--json']);
    expect(land.code, land.stderr).toBe(0);

    const page = await open('/w/w1');
    await expect(page.locator('#condition').textContent()).resolves.toBe('landing approval');
    const report = page.locator('section[aria-labelledby="h-report"] .md');
    await expect(report.textContent()).resolves.toContain('Added feature.txt.');
    expect(await report.locator('script, img').count()).toBe(0);
    await expect(page.locator('.verdict').textContent()).resolves.toBe('ready to land');
    await expect(page.locator('#diff').textContent()).resolves.toContain('feature.txt');
    await page.waitForSelector('#diff .d2h-ins', { timeout: 5000 });
    await expect(page.locator('section[aria-labelledby="h-landing"]').textContent()).resolves.toContain('Attribution check: no commit message');
    expect(await page.locator('.journal tbody tr').count()).toBeGreaterThan(3);

    await page.getByRole('button', { name: 'Approve landing' }).click();
    await page.locator('#condition', { hasText: /^landed$/ }).waitFor({ timeout: 60_000 });
    expect(execFileSync('git', ['-C', world.repo, 'log', '--format=%s', 'main'], { encoding: 'utf8' })).toContain('Add the feature file');
    expect(existsSync(dispatched.worktree)).toBe(false);
    expect(await stage('w1')).toBe('landed');
    expect(await page.evaluate('window.__khPwned')).toBeUndefined();
    await page.close();
  }, 240_000);

  it('shows a refusal from the daemon as a readable message', async () => {
    const page = await open('/w/w1');
    // The landed worker has no gate: the same refusal `hand approve w1` prints.
    // The session's header token, read where the page's own script reads it.
    const csrf = await page.locator('meta[name="hand-token"]').getAttribute('content');
    const res = await page.evaluate(async (token) => {
      const r = await fetch('/api/approve', { method: 'POST', headers: { 'content-type': 'application/json', 'x-hand-token': token }, body: '{"id":"w1"}' });
      return { status: r.status, body: (await r.json()) as { error: { code: string; message: string } } };
    }, csrf!);
    const cli = await world.hand(['approve', 'w1', '--json']);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no-open-gate');
    expect(res.body.error.message).toBe(cli.json.error.message);
    await page.close();
  });

  it('answers an open decision from the page: the answer reaches the worker through the decide handler', async () => {
    const brief = join(world.root, 'd1.md');
    writeFileSync(brief, '# Park\n\n## Read first\n\nNothing.\n\n## Task\n\nMODE:park\n');
    await dispatchMock(world.hand, 'd1', world.repo, brief);
    expect((await world.hand(['approve', 'd1'])).code).toBe(0);
    let key = '';
    await waitFor(async () => {
      const open = (await world.hand(['decisions', '--json'])).json as { key: string; worker: string }[];
      key = open.find((d) => d.worker === 'd1')?.key ?? '';
      return key || undefined;
    }, { what: "d1's decision", timeoutMs: 45_000 });
    const page = await open('/w/d1');
    const form = page.locator(`form[data-action="decide"][data-key="${key}"]`);
    await form.waitFor({ timeout: 10_000 });
    await form.getByLabel('Answer or reason').fill('Postgres');
    await form.getByRole('button', { name: 'Answer' }).click();
    await page.waitForSelector('#toast:not(.bad)', { timeout: 10_000 });
    await expect.poll(() => page.textContent('#toast'), { timeout: 10_000 }).toContain('answer typed into d1');
    const after = (await world.hand(['decisions', '--all', '--json'])).json as { key: string; state: string; answer: string }[];
    expect(after.find((d) => d.key === key)).toMatchObject({ state: 'answered', answer: 'Postgres' });
    await page.close();
  }, 90_000);
});
