/**
 * Issue 40's "done when", with the REAL Claude Code 2.1.332 as the Hand in a `hand init`
 * workspace (its model scripted by the fake Anthropic API: tests/claude-e2e/hand-script.ts) and a
 * mock worker on tmux inside kingshand's sandbox:
 *
 *  1. the person asks for a task; the Hand arms the Monitor, files the item, dispatches it and
 *     gives the worker's page;
 *  2. the person opens that page in Chromium and writes a note on requirement R-002;
 *  3. the note wakes the Hand (its Monitor line), which reads it with `annotations`, writes the
 *     revised brief into its workspace, rejects the brief gate, dispatches the item again with the
 *     revised brief and takes the note — the worker's new brief carries the person's words;
 *  4. the person approves; the worker builds, runs its brief's three browser checks in a real
 *     headless Chromium against a page this test serves on 127.0.0.1, and reports;
 *  5. the person asks to land it: the Hand's `land` result and its words carry
 *     "verified — 3 checks: 3 verified".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { launchChromium } from '../helpers/browser.ts';
import { HandSession, mockWorkersEnv } from './hand-session-world.ts';
import { fleetLineTurn, handTurns, HandScript, mcp, monitorStep, resultJson, type HandCall, type Turn } from './hand-script.ts';
import { shellCommand } from '../../io/workspace/kit-settings.ts';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { briefCopyPathOf } from '../../io/brief/worker-layout.ts';

const ID = 'basket-w';
const NOTE = 'Say "Your basket is empty" in exactly those words.';
const SAY = {
  start: 'One task for repo: basket-w, the basket page. Dispatch it and give me its page to review.',
  approve: 'The revised brief is right: approve basket-w.',
  land: 'Land basket-w.',
} as const;

const s = new HandSession();
let browser: Browser | null = null;
let site: Server;
let briefPath: string;

const BRIEF = (extra = '') => `# basket-w

## Goal

BASKET-CHECKS: the basket page.

## Requirements

- The basket shows its total.
- Empty baskets say so.${extra}

## Read first

Nothing: index checked.

## Browser checks

- C-001: the basket page greets the person with "Your basket"
- C-002: an empty basket says "Your basket is empty"
- C-003: the page's footer says "Made in Lyon"
`;

/** The Hand's turn for a wake line: the person's note revises the brief; any other line is relayed. */
function wakeTurnOf(event: string, ctx: { revisedPath: string }): { key: string; turn: Turn } {
  if (event.includes(`the person annotated ${ID}'s brief`)) {
    // muster step 4: the person's words into the brief, the gate rejected, the item dispatched again with it, the note taken.
    return { key: 'wake:annotated', turn: {
      steps: [
        mcp('annotations', () => ({ id: ID })),
        { name: 'Write', input: (c: HandCall[]) => {
          const n = (resultJson(c[0]) as { item: string; text: string }[])[0]!;
          return { file_path: ctx.revisedPath, content: BRIEF(`\n  The person, on ${n.item}: ${n.text}`) };
        } },
        mcp('reject', () => ({ id: ID, reason: 'revised brief follows' })),
        mcp('dispatch', () => ({ item: ID, brief: ctx.revisedPath, agent: 'mock', backend: 'tmux' })),
        mcp('annotations_take', (c) => ({ n: [(resultJson(c[0]) as { n: number }[])[0]!.n], as: 'revised-brief' })),
      ],
      say: (c) => `Your note on ${(resultJson(c[0]) as { item: string }[])[0]!.item} is in the brief; basket-w waits at its gate again with it.`,
    } };
  }
  return fleetLineTurn(event);
}

/** The Hand's turn for each thing the person says. */
function personTurnOf(name: keyof typeof SAY, ctx: { watchCommand: string; revisedPath: string }): Turn {
  switch (name) {
    case 'start':
      return {
        steps: [
          monitorStep(ctx.watchCommand),
          mcp('backlog_add', () => ({ id: ID, title: 'The basket page', project: 'repo', brief: briefPath })),
          mcp('dispatch', () => ({ item: ID, agent: 'mock', backend: 'tmux' })),
          mcp('review_url', () => ({ id: ID })),
        ],
        say: (c) => `basket-w waits for your review: ${resultJson(c[3]).url}`,
      };
    case 'approve':
      return { steps: [mcp('approve', () => ({ id: ID }))], say: () => 'Approved: basket-w starts.' };
    case 'land':
      return {
        steps: [mcp('report', () => ({ id: ID })), mcp('land', () => ({ id: ID }))],
        say: (c) => `${resultJson(c[0]).text.trim()}\nBrowser checks: ${resultJson(c[1]).evidence.browserChecks.line}. Approve the landing?`,
      };
  }
}

const turns = handTurns(SAY, personTurnOf, wakeTurnOf);

beforeAll(async () => {
  await s.open('hand-notes');
  const repo = s.path('repo');
  makeTestRepo(repo, '# a project\n');
  briefPath = s.path('basket-w.md');
  writeFileSync(briefPath, BRIEF());
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Basket</title><h1>Your basket</h1><p>Your basket is empty</p><footer>Made in Lyon</footer>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // The worker's turn: build, run its three checks with the tool its brief names, report.
  const out = dirname(s.reportPathOf(ID));
  const tool = `${shellCommand([process.execPath, join(KINGSHAND_ROOT, 'bin', 'hand.js'), 'browser-check'])}`;
  const check = (id: string, expect: string) => ({ kind: 'bash', command: `${tool} ${id} --out ${shellCommand([out])} --url ${origin}/ --expect '${expect}'`, description: `Browser check ${id}` });
  const scenario = s.workerScenario([{ match: 'BASKET-CHECKS', once: true, steps: [
    { kind: 'think', ms: 600 },
    { kind: 'bash', command: 'echo basket > basket.txt && git add basket.txt && git commit -q -m "Add the basket page"', description: 'Commit the basket page' },
    check('C-001', 'Your basket'), check('C-002', 'Your basket is empty'), check('C-003', 'Made in Lyon'),
    { kind: 'write', path: s.reportPathOf(ID), content: '# Report\n\nThe basket page is in; its three browser checks ran.\n' },
    { kind: 'reply', text: 'Done; the report is written.' },
  ] }]);
  await s.init(mockWorkersEnv(scenario));
  expect((await s.hand(['annex', repo, '--json'])).code).toBe(0);
  const { watchCommand } = s.kitCommands();
  const revisedPath = join(s.ws, 'data', 'briefs', `${ID}.md`);
  await s.startClaude(new HandScript(turns({ watchCommand, revisedPath })));
  await s.atIdleBox();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
  await s.close([ID]);
}, 90_000);

describe.sequential('the Hand revises a brief from the person\'s note and lands checked work, in real Claude Code', () => {
  it('dispatches the task and gives the worker\'s page', async () => {
    await s.person(SAY.start);
    const said = await s.saidBy('person:start', 90_000);
    expect(s.callsOf('person:start').map((c) => c.name)).toEqual(['Monitor', 'mcp__hand__backlog_add', 'mcp__hand__dispatch', 'mcp__hand__review_url']);
    expect(resultJson(s.callsOf('person:start')[2])).toMatchObject({ id: ID, stage: 'gate.awaitingBriefApproval' });
    expect(said).toContain(`/w/${ID}?token=`);
  }, 120_000);

  it("the person's note written on the page in Chromium reaches the Hand, which revises the brief with it and takes it", async () => {
    const url = resultJson(s.callsOf('person:start')[3]).url as string;
    browser = await launchChromium();
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    await page.waitForSelector('#live.on', { timeout: 15_000 });
    await page.click('#item-R-002 summary');
    await page.fill('#item-R-002 textarea', NOTE);
    await page.click('#item-R-002 button[type="submit"]');
    await page.waitForSelector('#item-R-002 .notes li', { timeout: 10_000 });

    const said = await s.saidBy('wake:annotated', 120_000);
    const wake = s.script.notifications.find((n) => n.includes('the person annotated'))!;
    expect(wake).toContain(`the person annotated ${ID}'s brief, R-002 ("Empty baskets say so."): ${JSON.stringify(NOTE).replace(/"/g, '"')}`);
    const calls = s.callsOf('wake:annotated');
    expect(calls.map((c) => c.name)).toEqual(['mcp__hand__annotations', 'Write', 'mcp__hand__reject', 'mcp__hand__dispatch', 'mcp__hand__annotations_take']);
    expect(resultJson(calls[0])).toEqual([expect.objectContaining({ item: 'R-002', text: NOTE, on: 'brief', via: 'page', taken: null })]);
    expect(calls[1]!.result?.isError, calls[1]!.result?.content).toBe(false);
    expect(resultJson(calls[3])).toMatchObject({ id: ID, stage: 'gate.awaitingBriefApproval' });
    expect(resultJson(calls[4])[0].taken).toMatchObject({ as: 'revised-brief' });
    expect(said).toContain('Your note on R-002 is in the brief');
    // The worker's brief as dispatched now carries the person's words; nothing of theirs is left untaken.
    expect(readFileSync(briefCopyPathOf(resultJson(calls[3]).briefPath), 'utf8')).toContain(`The person, on R-002: ${NOTE}`);
    expect((await s.hand(['annotations', ID, '--json'])).json).toEqual([]);
  }, 180_000);

  it('approved, the worker runs its browser checks in Chromium; landing, the Hand says "verified — 3 checks: 3 verified"', async () => {
    await s.person(SAY.approve);
    await s.saidBy('person:approve', 90_000);
    const done = await s.hand(['wait', ID, '--until', 'settled', '--timeout', '120s', '--json'], { timeoutMs: 150_000 });
    expect(done.code, done.stdout + done.stderr).toBe(0);
    await s.person(SAY.land);
    const said = await s.saidBy('person:land', 120_000);
    const land = resultJson(s.callsOf('person:land')[1]);
    expect(land, JSON.stringify(land.evidence.browserChecks?.checks)).toMatchObject({ gate: 'open', evidence: { browserChecks: { verdict: 'verified', line: 'verified — 3 checks: 3 verified' } } });
    expect(said).toContain('Browser checks: verified — 3 checks: 3 verified.');
  }, 240_000);
});
