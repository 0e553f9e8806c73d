/**
 * Steps shared by the review page's browser tests, its screenshot script and its bench: the
 * page's URL as `hand review` prints it, and a worker that commits and reports, driven through
 * the CLI exactly as tests/cli/cli-landing.test.ts drives one. Each step throws, naming what
 * went wrong, so a script and a test read the same failure.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { HandRun, HandRunner } from './hand-process.ts';
import { launchChromium } from './browser.ts';

export interface ReviewUrl {
  /** With the token: what `hand review` prints. */
  url: string;
  /** The page's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  token: string;
}

function ok(r: HandRun, what: string): HandRun {
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr || r.stdout}`);
  return r;
}

export async function reviewUrl(hand: HandRunner): Promise<ReviewUrl> {
  const r = ok(await hand(['review', '--json']), 'hand review');
  const url = new URL(r.json.url as string);
  return { url: url.href, origin: url.origin, token: url.searchParams.get('token')! };
}

/** The page as a person opens it at a desk: its URL as `hand review` prints it, and a headless Chromium with one 1280×900 context (closing the browser closes it). */
export async function openReviewAtDesk(hand: HandRunner): Promise<{ review: ReviewUrl; browser: Browser; context: BrowserContext }> {
  const review = await reviewUrl(hand);
  const browser = await launchChromium();
  return { review, browser, context: await browser.newContext({ viewport: { width: 1280, height: 900 } }) };
}

/** Dispatches a mock worker; returns dispatch's JSON (stage is the brief gate on a non-yolo project). */
export async function dispatchMock(hand: HandRunner, id: string, repo: string, brief: string, env: Record<string, string> = {}): Promise<Record<string, any>> {
  return ok(await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', 'mock', '--json'], { env }), `hand dispatch ${id}`).json;
}

export async function waitUntil(hand: HandRunner, id: string, until: 'settled' | 'blocked', timeout = '30s'): Promise<Record<string, any>> {
  return ok(await hand(['wait', id, '--until', until, '--timeout', timeout, '--json']), `hand wait ${id} --until ${until}`).json;
}

/** From a settled worker: one commit through a Bash permission answered by key, then its report. */
export async function commitAndReport(hand: HandRunner, id: string, reportPath: string, command: string): Promise<void> {
  ok(await hand(['send', id, `MODE:bash[[${command}]]`]), `hand send ${id} MODE:bash`);
  const perm = await waitUntil(hand, id, 'blocked');
  if (perm.blockedReason !== 'permission') throw new Error(`${id} blocked on ${perm.blockedReason}, not the Bash permission`);
  ok(await hand(['keys', id, 'enter']), `hand keys ${id} enter`);
  await waitUntil(hand, id, 'settled');
  ok(await hand(['send', id, `MODE:report ${reportPath}`]), `hand send ${id} MODE:report`);
  await waitUntil(hand, id, 'settled');
}
