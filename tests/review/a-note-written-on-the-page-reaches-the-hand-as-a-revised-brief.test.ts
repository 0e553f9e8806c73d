/**
 * Rule (issue 40, the review surface takes feedback): a worker's page lists what the person
 * decides on by id — R- requirements, C- browser checks and Q- questions from its brief, F- files
 * of its diff — and the person writes a note on any of them (or on the worker as a whole) right
 * there. The note is stored in the fleet database, wakes the Hand (`hand watch --needs-you`), is
 * read back with `hand annotations`, and before the brief is approved becomes a revised brief;
 * once taken it is no longer new. The page shows the person's words escaped.
 *
 * Real parts: a daemon, tmux, a mock worker, the review page in Debian's Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { dispatchMock, openReviewAtDesk, type ReviewUrl } from '../helpers/review-steps.ts';
import { briefCopyPathOf } from '../../io/brief/worker-layout.ts';

let world: CliWorld;
let browser: Browser;
let context: BrowserContext;
let review: ReviewUrl;

const BRIEF = `# Brief w1

## Goal

A basket page.

## Requirements

- The basket shows its total.
- Empty baskets say so.

## Read first

Nothing: index checked.

## Browser checks

- C-001: the basket page shows "Total"

## Questions

- Should the total include tax?
`;

const NOTE = 'Say "Your basket is empty" in those words <script>window.__khPwned = 1</script>';

beforeAll(async () => {
  world = await makeCliWorld('annotate-page');
  expect((await world.hand(['annex', world.repo, '--posture', 'local-only'])).code).toBe(0);
  writeFileSync(join(world.root, 'w1.md'), BRIEF);
  expect((await dispatchMock(world.hand, 'w1', world.repo, join(world.root, 'w1.md'))).stage).toBe('gate.awaitingBriefApproval');
  ({ review, browser, context } = await openReviewAtDesk(world.hand));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.cleanup();
});

async function workerPage(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${review.origin}/w/w1?token=${review.token}`);
  await page.waitForSelector('#live.on', { timeout: 10_000 });
  return page;
}

/** `hand watch --needs-you` for a moment: the lines it prints. */
async function wakes(): Promise<{ need: string; line: string; command: string }[]> {
  const r = await world.hand(['watch', '--needs-you', '--timeout', '2s', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('a note written on the page reaches the Hand as a revised brief', () => {
  it("the page lists the brief's items by id, each with a note form, and one for the worker as a whole", async () => {
    const page = await workerPage();
    const ids = await page.locator('#details .item .item-id').allTextContents();
    expect(ids).toEqual(['R-001', 'R-002', 'C-001', 'Q-001', 'general']);
    await expect(page.locator('#item-R-002 .item-text').textContent()).resolves.toBe('Empty baskets say so.');
    expect(await page.locator('form[data-action="annotate"]').count()).toBe(5);
    await page.close();
  });

  it('a note typed on R-002 in Chromium is stored as the person wrote it, shown escaped, and wakes the Hand', async () => {
    const page = await workerPage();
    await page.click('#item-R-002 summary');
    await page.fill('#item-R-002 textarea', NOTE);
    await page.click('#item-R-002 button[type="submit"]');
    await page.waitForSelector('#item-R-002 .notes li', { timeout: 10_000 });
    await expect(page.locator('#item-R-002 .notes .note-text').textContent()).resolves.toBe(NOTE);
    expect(await page.evaluate('window.__khPwned')).toBeUndefined();

    const listed = await world.hand(['annotations', 'w1', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0]).toMatchObject({ n: 1, worker: 'w1', item: 'R-002', itemText: 'Empty baskets say so.', on: 'brief', via: 'page', text: NOTE, taken: null });
    expect(listed.json[0].next).toContain('revise the brief');
    // --since: written within the last hour, yes; since a time to come, none.
    expect((await world.hand(['annotations', 'w1', '--since', '1h', '--json'])).json).toHaveLength(1);
    expect((await world.hand(['annotations', '--since', new Date(Date.now() + 3_600_000).toISOString(), '--json'])).json).toEqual([]);

    // Loaded afresh, the stored note is shown as text: the page runs none of it.
    await page.reload();
    await page.waitForSelector('#live.on', { timeout: 10_000 });
    await expect(page.locator('#item-R-002 .notes .note-text').textContent()).resolves.toBe(NOTE);
    expect(await page.locator('#details script').count()).toBe(0);
    expect(await page.evaluate('window.__khPwned')).toBeUndefined();
    await page.close();

    const lines = (await wakes()).filter((e) => e.need === 'annotated');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line).toBe(`the person annotated w1's brief, R-002 ("Empty baskets say so."): ${JSON.stringify(NOTE)} → hand annotations w1`);
  }, 60_000);

  it('the Hand revises the brief with it (reject, dispatch again) and takes it: the new brief carries it, and the note is no longer new', async () => {
    const [note] = (await world.hand(['annotations', 'w1', '--json'])).json;
    // What the Hand does (the muster skill): the person's words into the brief, the gate rejected, the worker dispatched again.
    const revised = BRIEF.replace('- Empty baskets say so.', `- Empty baskets say so, in these words: "Your basket is empty". (the person, on R-002)`);
    writeFileSync(join(world.root, 'w1-revised.md'), revised);
    expect((await world.hand(['reject', 'w1', '--reason', 'revised brief follows'])).code).toBe(0);
    const again = await world.hand(['dispatch', 'w1', '--repo', world.repo, '--brief', join(world.root, 'w1-revised.md'), '--agent', 'mock', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const took = await world.hand(['annotations', 'take', String(note.n), '--as', 'revised-brief', '--note', 'R-002 revised', '--json']);
    expect(took.code, took.stderr).toBe(0);
    expect(took.json[0].taken).toMatchObject({ as: 'revised-brief', note: 'R-002 revised' });

    expect(readFileSync(briefCopyPathOf(again.json.briefPath), 'utf8')).toContain('"Your basket is empty". (the person, on R-002)');
    expect((await world.hand(['annotations', 'w1', '--json'])).json).toEqual([]);
    expect((await world.hand(['annotations', 'w1', '--all', '--json'])).json).toHaveLength(1);
    expect((await wakes()).filter((e) => e.need === 'annotated')).toEqual([]);
    const text = await world.hand(['annotations', 'w1']);
    expect(text.stdout).toBe('no new annotations\n');
  }, 60_000);

  it('after approval a note is on the work, and its next step is a steer', async () => {
    expect((await world.hand(['approve', 'w1'])).code).toBe(0);
    expect((await world.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    const page = await workerPage();
    await page.click('.item.general summary');
    await page.fill('.item.general textarea', 'Keep the old basket URL working.');
    await page.click('.item.general button[type="submit"]');
    await page.waitForSelector('.item.general .notes li', { timeout: 10_000 });
    await page.close();
    const [note] = (await world.hand(['annotations', 'w1', '--json'])).json;
    expect(note).toMatchObject({ item: 'general', itemText: null, on: 'work', text: 'Keep the old basket URL working.' });
    expect(note.next).toContain('hand send w1');
    expect(note.said).toBe(`the person wrote on w1's work: "Keep the old basket URL working."`);
  }, 60_000);
});
