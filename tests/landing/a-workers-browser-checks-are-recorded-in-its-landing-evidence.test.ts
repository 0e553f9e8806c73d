/**
 * Rule (issue 40, the witness skill): the implementing worker runs its brief's `## Browser checks`
 * in a real headless Chromium through the tool kingshand gives it (`hand browser-check`, the
 * command its brief names), inside its own sandbox, and the landing evidence carries the verdict:
 * "verified — 3 checks: 3 verified" against a real page served on 127.0.0.1 by this test. A
 * missing browser is `not checked` with its reason, never verified; a record the worker wrote
 * itself, claiming verified without an observation, is not verified.
 *
 * Real parts: a daemon, tmux, the mock agent running scripted bash steps (KH_MOCK_RUN_BASH=1)
 * inside kingshand's bubblewrap sandbox, Debian's Chromium driven by playwright-core.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { reviewSession } from '../helpers/review-session.ts';
import { shellCommand } from '../../io/workspace/kit-settings.ts';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { CHECKS_HEADING } from '../../io/brief/browser-check-convention.ts';
import { probeSandbox } from '../../io/sandbox/availability.ts';

let world: CliWorld;
let site: Server;
let origin: string;

const PAGES: Record<string, string> = {
  '/': '<!doctype html><title>Shop</title><h1>Welcome back</h1><p>Your basket is empty.</p>',
  '/settings': '<!doctype html><title>Settings</title><h2>Settings</h2><ul><li>Dark mode</li><li>Language</li></ul>',
  '/about': '<!doctype html><title>About</title><main id="about"><p>Made in Lyon</p></main>',
};

const TOOL = shellCommand([process.execPath, join(KINGSHAND_ROOT, 'bin', 'hand.js'), 'browser-check']);

beforeAll(async () => {
  world = await makeCliWorld('witness');
  site = createServer((req, res) => {
    const page = PAGES[req.url ?? '/'];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  expect((await world.hand(['annex', world.repo, '--posture', 'local-only'])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await world?.cleanup();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
});

/** A brief with browser checks; the mock worker's scenario (written once dispatch named its places); the worker at its report. */
async function workerRunsItsChecks(id: string, checks: string[], steps: (out: string) => object[], env: Record<string, string> = {}): Promise<{ briefPath: string; out: string }> {
  const brief = join(world.root, `${id}.md`);
  writeFileSync(brief, `# Brief ${id}\n\n## Goal\n\nThe shop's pages say what they should.\n\n## Read first\n\nNothing: index checked.\n\n## Browser checks\n\n${checks.map((c) => `- ${c}`).join('\n')}\n`);
  const scenario = join(world.root, `${id}-scenario.json`);
  writeFileSync(scenario, '{"turns":[{"steps":[{"kind":"reply","text":"waiting"}]}]}');
  const d = await world.hand(['dispatch', id, '--repo', world.repo, '--brief', brief, '--agent', 'mock', '--json'], { env: { KH_MOCK_RUN_BASH: '1', KH_MOCK_PERMISSION_MODE: 'auto', KH_MOCK_SCENARIO: scenario, ...env } });
  expect(d.code, d.stderr).toBe(0);
  const out = dirname(d.json.reportPath as string);
  writeFileSync(scenario, JSON.stringify({
    turns: [{
      steps: [
        // Drawn working before the first tool runs (the mock runs a tool's command synchronously, its screen still).
        { kind: 'think', ms: 600 },
        { kind: 'bash', command: `printf 'shop\\n' > shop.txt && git add shop.txt && git commit -q -m "Add the shop page notes"` },
        ...steps(out),
        { kind: 'write', path: d.json.reportPath, content: `# Report ${id}\n\nRan the browser checks; checks.json has what each showed.\n` },
        { kind: 'reply', text: 'done' },
      ],
    }],
  }));
  expect((await world.hand(['approve', id, '--json'])).code).toBe(0);
  const settled = await world.hand(['wait', id, '--until', 'settled', '--timeout', '90s', '--json'], { timeoutMs: 120_000 });
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  expect((await world.hand(['status', id, '--json'])).json[0].reportExists, 'the worker wrote its report').toBe(true);
  return { briefPath: d.json.briefPath as string, out };
}

describe("a worker's browser checks are recorded in its landing evidence", () => {
  it('runs in its sandbox (bubblewrap is here)', () => {
    expect(probeSandbox(world.env).ok, 'these workers run in kingshand\'s sandbox: the rule is about checks run inside it').toBe(true);
  });

  it('three checks run in a real Chromium inside the sandbox: the evidence says "verified — 3 checks: 3 verified"', async () => {
    const { briefPath, out } = await workerRunsItsChecks('w1', [
      'C-001: the home page greets the person with "Welcome back"',
      'C-002: the settings page lists "Dark mode"',
      'C-003: the about page says where it is made',
    ], (o) => [
      { kind: 'bash', command: `${TOOL} C-001 --out ${shellCommand([o])} --url ${origin}/ --expect 'Welcome back'` },
      { kind: 'bash', command: `${TOOL} C-002 --out ${shellCommand([o])} --url ${origin}/settings --expect 'Dark mode' --expect-not 'Light mode'` },
      { kind: 'bash', command: `${TOOL} C-003 --out ${shellCommand([o])} --url ${origin}/about --selector '#about' --expect 'Made in Lyon'` },
    ]);
    // The worker was told exactly this command, with its own report directory.
    const told = readFileSync(briefPath, 'utf8');
    expect(told).toContain(CHECKS_HEADING);
    expect(told).toContain(`${TOOL} C-001 --out ${shellCommand([out])} --url http://127.0.0.1:<port>/<path>`);
    // What the tool recorded, from inside the sandbox: a real Chromium saw the page.
    const record = JSON.parse(readFileSync(join(out, 'checks.json'), 'utf8'));
    expect(record.checks['C-001']).toMatchObject({ result: 'verified', observed: { status: 200, title: 'Shop', browser: expect.stringMatching(/^Chromium \d+/) } });
    expect(record.checks['C-003'].observed.text).toBe('Made in Lyon');

    const land = await world.hand(['land', 'w1', '--json']);
    expect(land.code, land.stderr).toBe(0);
    expect(land.json.evidence.browserChecks).toMatchObject({ verdict: 'verified', line: 'verified — 3 checks: 3 verified', counts: { verified: 3, failed: 0, 'not checked': 0 } });
    expect(land.json.evidence.browserChecks.checks.map((c: { id: string; result: string }) => `${c.id} ${c.result}`)).toEqual(['C-001 verified', 'C-002 verified', 'C-003 verified']);
    // What the worker's record says reaches every face quoted as the worker's words.
    expect(land.json.evidence.browserChecks.checks[0].said).toMatch(/^observed: worker w1 wrote: ".*Welcome back/);
    const text = await world.hand(['land', 'w1']);
    expect(text.stdout).toContain('browser checks: verified — 3 checks: 3 verified');
    // The page's evidence section carries it too, and the open gate remembers it.
    const page = await (await reviewSession(world.hand)).get('/w/w1');
    expect(page.text).toContain('Browser checks: <strong>verified — 3 checks: 3 verified</strong>');
    expect((await world.hand(['landings', '--json'])).json[0].browserChecks.line).toBe('verified — 3 checks: 3 verified');
    // At the landing gate the review lists its checks and the files of its diff by id, each open to a note.
    expect(page.text).toContain('<span class="item-id">C-003</span>');
    expect(page.text).toContain('<span class="item-id">F-001</span> <span class="item-text"><code>shop.txt</code></span>');
    const note = await world.hand(['annotate', 'w1', 'F-001', 'Call it basket.txt', '--json']);
    expect(note.code, note.stderr).toBe(0);
    expect(note.json).toMatchObject({ item: 'F-001', itemText: 'shop.txt', on: 'landing' });
    expect(note.json.next).toContain('hand reject w1');
  }, 180_000);

  it('no Chromium (HAND_CHROMIUM pointing nowhere) is not checked with its reason; a verified claim the worker wrote without an observation is not verified', async () => {
    await workerRunsItsChecks('w2', [
      'C-001: the home page greets the person',
      'C-002: the settings page lists "Dark mode"',
    ], (o) => [
      // The worker writes a record of its own first: a bare claim, no observation.
      { kind: 'write', path: join(o, 'checks.json'), content: JSON.stringify({ kind: 'kingshand-browser-checks', version: 1, checks: { 'C-002': { result: 'verified', at: '2026-12-06T00:00:00Z' } } }) },
      { kind: 'bash', command: `${TOOL} C-001 --out ${shellCommand([o])} --url ${origin}/ --expect 'Welcome back'` },
    ], { HAND_CHROMIUM: '/nowhere/chromium' });
    const land = await world.hand(['land', 'w2', '--json']);
    expect(land.code, land.stderr).toBe(0);
    const v = land.json.evidence.browserChecks;
    expect(v).toMatchObject({ verdict: 'not checked', line: 'not checked — 2 checks: 2 not checked' });
    expect(v.checks[0]).toMatchObject({ id: 'C-001', result: 'not checked' });
    expect(v.checks[0].said).toContain('no Chromium at /nowhere/chromium (HAND_CHROMIUM)');
    expect(v.checks[1]).toMatchObject({ id: 'C-002', result: 'not checked' });
    expect(v.checks[1].said).toContain('without a recorded observation: not verified');
    const text = await world.hand(['land', 'w2']);
    expect(text.stdout).toContain('browser checks: not checked — 2 checks: 2 not checked');
    expect(text.stdout).toMatch(/C-001 not checked: its record says why: worker w2 wrote: "no Chromium at \/nowhere\/chromium/);
  }, 180_000);
});
