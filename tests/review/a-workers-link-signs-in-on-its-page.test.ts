/**
 * Rule: the link `review_url` (MCP), `hand review <id>` (CLI) and the daemon's `review` give for a
 * worker signs the browser in and lands on that worker's page (issue 38 item 3). The kit told the
 * Hand to build "review_url plus w/<id>", which put the path inside the token (`?token=T/w/<id>`)
 * and the person got 403. A link for a worker that does not exist is refused when asked for, not
 * handed out; a link with a wrong token is refused by the page, plainly, and opens no session.
 * Driven in a real headless Chromium (Debian's package) against a real daemon, tmux and mock
 * worker, with the MCP server the Hand runs (`hand mcp` over stdio).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeWorkspaceWorld } from '../helpers/workspace-world.ts';
import { callTool, connectMcp } from '../helpers/mcp-client.ts';
import { launchChromium } from '../helpers/browser.ts';
import { dispatchMock, reviewUrl, type ReviewUrl } from '../helpers/review-steps.ts';
import { waitFor } from '../helpers/temp.ts';

let w: CliWorld;
let client: Client;
let browser: Browser;
let review: ReviewUrl;

beforeAll(async () => {
  let ws: string;
  ({ w, ws } = await makeWorkspaceWorld('review-worker-link'));
  expect((await w.hand(['annex', w.repo, '--posture', 'local-only'])).code).toBe(0);
  const dispatched = await dispatchMock(w.hand, 'w1', w.repo, w.brief('w1', 'Say hello.'));
  expect(dispatched.stage, 'the worker waits at its brief gate, where the Hand hands over its page').toBe('gate.awaitingBriefApproval');
  review = await reviewUrl(w.hand);
  client = await connectMcp(w, ws);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await w?.cleanup();
}, 60_000);

/** Opens `url` in a fresh browser (no cookie yet); gives the page, its first response and its context. */
async function openFresh(url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(url);
  return { context, page, status: response?.status() ?? 0 };
}

describe("a worker's review link", () => {
  it("the link review_url gives with the worker's id signs a fresh browser in and lands on the worker's page", async () => {
    const tool = await callTool(client, 'review_url', { id: 'w1' });
    expect(tool.isError, tool.text).toBe(false);
    const link = tool.value.url as string;
    expect(tool.value.worker).toBe('w1');
    expect(link).toBe(`${review.origin}/w/w1?token=${review.token}`);
    const cli = await w.hand(['review', 'w1', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json.url, 'the CLI and MCP faces give the same link').toBe(link);
    expect((await w.hand(['review', 'w1'])).stdout.split('\n')[0]).toBe(link);

    const { context, page, status } = await openFresh(link);
    try {
      expect(status).toBe(200);
      expect(page.url(), "the worker's page, the token gone from the address bar").toBe(`${review.origin}/w/w1`);
      await page.waitForSelector('#live.on', { timeout: 10_000 });
      await expect(page.title()).resolves.toMatch(/^w1 — /);
      await expect(page.locator('#condition').textContent()).resolves.toBe('brief approval');
      await expect(page.getByRole('button', { name: 'Approve brief' }).count()).resolves.toBe(1);
      const cookie = (await context.cookies()).find((c) => c.name === 'hand_review');
      expect(cookie, 'signed in: a session cookie').toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(cookie!.value).not.toBe(review.token);
    } finally {
      await context.close();
    }
  });

  it('the link the kit used to build (the fleet link plus w/<id>) is what was refused: the path lands inside the token', async () => {
    const fleet = (await callTool(client, 'review_url')).value.url as string;
    const { context, page, status } = await openFresh(`${fleet}w/w1`);
    try {
      expect(status).toBe(403);
      await expect(page.locator('body').textContent()).resolves.toContain('wrong token');
    } finally {
      await context.close();
    }
    const kit = readFileSync(join(w.root, 'ws', 'CLAUDE.md'), 'utf8') + readFileSync(join(w.root, 'ws', '.claude', 'skills', 'muster', 'SKILL.md'), 'utf8');
    expect(kit, 'the kit no longer tells the Hand to add a path to the link').not.toMatch(/review_url`?,? (plus|then) `?\/?w\//);
    expect(kit).toContain("the link `review_url` returns with the worker's `id`");
  });

  it('a link for a worker that does not exist is refused when asked for, naming the id, on every face', async () => {
    const cli = await w.hand(['review', 'nobody', '--json']);
    expect(cli.code).not.toBe(0);
    expect(cli.json.error).toMatchObject({ code: 'unknown-worker', message: expect.stringContaining('no worker named "nobody"') });
    const text = await w.hand(['review', 'nobody']);
    expect(text.stdout, 'no link is printed').not.toContain('token=');
    expect(text.stderr).toContain('no worker named "nobody"');
    const tool = await callTool(client, 'review_url', { id: 'nobody' });
    expect(tool.isError).toBe(true);
    expect(tool.text).toContain('no worker named "nobody"');
    expect(tool.text).not.toContain('token=');
    // A link made by hand for a worker that does not exist signs in and says so on the page.
    const { context, page, status } = await openFresh(`${review.origin}/w/nobody?token=${review.token}`);
    try {
      expect(status).toBe(404);
      await expect(page.locator('body').textContent()).resolves.toContain('No worker named nobody.');
    } finally {
      await context.close();
    }
  });

  it("a worker's link with a wrong token is refused plainly and opens no session", async () => {
    const wrong = review.token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const { context, page, status } = await openFresh(`${review.origin}/w/w1?token=${wrong}`);
    try {
      expect(status).toBe(403);
      await expect(page.title()).resolves.toMatch(/^refused/);
      await expect(page.locator('body').textContent()).resolves.toContain('wrong token');
      expect((await context.cookies()).filter((c) => c.name === 'hand_review'), 'no session').toEqual([]);
      // And the worker's page itself stays shut to that browser.
      expect((await page.goto(`${review.origin}/w/w1`))?.status()).toBe(403);
    } finally {
      await context.close();
    }
  });

  it('a sign-in link never sends the browser off the page: a path that reads as another host stays on the page', async () => {
    // `/.//h/w` is the path `//h/w`, which a browser reads as the host h: the 303 used to send it there.
    // Sent as written (fetch would resolve the dot segment before sending).
    const get = (path: string) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        const req = httpRequest(`${review.origin}/`, { path }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        });
        req.on('error', reject);
        req.end();
      });
    for (const [path, location] of [['/.//elsewhere.example/w', '/elsewhere.example/w'], ['/%2F/elsewhere.example', '/%2F/elsewhere.example']]) {
      expect(await get(`${path}?token=${review.token}`), path).toEqual({ status: 303, location });
    }
  });

  it("hand review <id> --open: the private sign-in file lands a fresh browser on the worker's page", async () => {
    const seen = join(w.root, 'opened.txt');
    const opener = join(w.root, 'record-url');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(`${seen}.tmp`)} && mv ${JSON.stringify(`${seen}.tmp`)} ${JSON.stringify(seen)}\n`);
    chmodSync(opener, 0o755);
    const r = await w.hand(['review', 'w1', '--open', '--json'], { env: { HAND_BROWSER: opener } });
    expect(r.code, r.stderr).toBe(0);
    const fileUrl = await waitFor(() => (existsSync(seen) ? readFileSync(seen, 'utf8') : undefined), { what: 'the opener to be handed the sign-in file', timeoutMs: 10_000 });
    expect(fileUrl).toMatch(/^file:\/\/\/.*\.html$/);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(fileUrl);
      await page.waitForURL(`${review.origin}/w/w1`, { timeout: 10_000 });
      await page.waitForSelector('#live.on', { timeout: 10_000 });
      await expect(page.title()).resolves.toMatch(/^w1 — /);
    } finally {
      await context.close();
    }
  });
});
