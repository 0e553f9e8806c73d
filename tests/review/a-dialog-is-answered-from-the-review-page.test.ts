/**
 * The review page shows a live dialog's options as buttons that go through the daemon's
 * `answer` handler (the one `hand answer` reaches), in a real headless Chromium against a real
 * daemon, tmux and mock worker: a button whose dialog is no longer the one on screen (its
 * fingerprint differs) is refused and nothing is pressed; the person's option is selected and
 * the worker carries on with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';
import { launchChromium } from '../helpers/browser.ts';
import { dispatchMock, reviewUrl, waitUntil, type ReviewUrl } from '../helpers/review-steps.ts';

let world: CliWorld;
let browser: Browser;
let review: ReviewUrl;

beforeAll(async () => {
  world = await makeCliWorld('review-dialog');
  expect((await world.hand(['annex', world.repo, '--yolo'])).code).toBe(0);
  await dispatchMock(world.hand, 'q1', world.repo, world.brief('q1', 'MODE:ask which database'));
  await waitUntil(world.hand, 'q1', 'blocked');
  review = await reviewUrl(world.hand);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.cleanup();
});

const screen = async () => (await world.hand(['read', 'q1'])).stdout;

describe('a dialog is answered from the review page', () => {
  it('a stale button is refused with nothing pressed; the person\'s option is selected', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page: Page = await context.newPage();
      await page.goto(review.url);
      await page.goto(`${review.origin}/w/q1`);
      await page.waitForSelector('#live.on', { timeout: 10_000 });
      const postgres = page.locator('button[data-action="answer"][data-option="2"]');
      await postgres.waitFor({ timeout: 10_000 });
      expect(await postgres.textContent()).toBe('2. Postgres');
      expect(await page.textContent('.dialog-answer .question q.said')).toBe('Which database should the fake project use?');
      expect(await page.textContent('.dialog-answer .question .said-by')).toBe("q1's screen:");

      // A page that showed another dialog: its fingerprint is not the one on screen now.
      const before = await screen();
      await page.locator('button[data-action="answer"][data-option="3"]').evaluate((b: any) => {
        b.dataset.fingerprint = '0123456789abcdef';
        b.click();
      });
      await page.waitForSelector('#toast.bad', { timeout: 10_000 });
      expect(await page.textContent('#toast')).toContain('not the one you answered');
      expect(await screen()).toBe(before);

      await postgres.click();
      await expect.poll(() => page.textContent('#toast'), { timeout: 15_000 }).toContain('answered 2, worker q1 wrote: "Postgres"');
      await waitFor(async () => ((await screen()).includes('you chose Postgres') ? true : undefined), { what: 'q1 carrying on with Postgres', timeoutMs: 20_000 });
    } finally {
      await context.close();
    }
  });
});
