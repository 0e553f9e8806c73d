/**
 * The review page's liveness: from the moment a mock worker draws its question menu (its own
 * event log, stamped just before the frame) to the moment the question is on the worker page
 * open in a real headless Chromium (a MutationObserver on the live screen, same clock).
 * Target: p95 ≤ 250 ms. `node --import tsx bench/review-latency.ts` (REVIEW_TRIALS=n, default
 * 20; BENCH_QUICK=1 → 5). Prints one JSON line with the figures and the load average.
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { makeWorld } from './lib/world.ts';
import { makeDaemonWorld } from './lib/daemon.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { cleanUpWhenCutShort, onCleanup, runCleanups } from './lib/cleanup.ts';
import { percentile, round } from './lib/stats.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { reviewUrl } from '../tests/helpers/review-steps.ts';

const trials = Number(process.env.REVIEW_TRIALS ?? (process.env.BENCH_QUICK === '1' ? 5 : 20));
/** Shown only while the question's menu is open (an option's description). */
const MENU_MARK = 'Keep everything in memory';
const log = (m: string) => console.error(`[review-bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Resolves with the page's wall clock when the menu shows on the live screen. */
function menuOnPage(page: Page): Promise<number> {
  return page.evaluate(
    (mark) =>
      new Promise<number>((resolve) => {
        const el = (globalThis as any).document.getElementById('screen');
        const obs = new (globalThis as any).MutationObserver(() => {
          if (el.textContent.includes(mark)) {
            obs.disconnect();
            resolve(performance.timeOrigin + performance.now());
          }
        });
        obs.observe(el, { childList: true, subtree: true, characterData: true });
      }),
    MENU_MARK,
  );
}

cleanUpWhenCutShort(log);
const loadAtStart = loadavg().map((x) => round(x, 2));
try {
  const world = makeWorld('review');
  const d = await makeDaemonWorld(world);
  const id = 'rv1';
  const events = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: events }));
  const { url } = await reviewUrl(d.hand);
  const browser = await launchChromium();
  onCleanup('chromium', () => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url.replace('/?', `/w/${id}?`));
  await page.waitForSelector('#live.on');
  const samples: number[] = [];
  /** The same trial seen by the daemon itself (`hand watch` row turning blocked): the page's floor. */
  const daemonSamples: number[] = [];
  for (let i = 0; i < trials; i++) {
    if ((await page.locator('#screen').textContent())?.includes(MENU_MARK)) throw new Error('the menu is still on the page before the trial');
    const seen = menuOnPage(page);
    const watched = d.watchUntil(id, 'blocked', (row) => row.awaitingInput === true);
    await watched.ready;
    const t0 = Date.now();
    await d.rpc('send', { id, text: 'MODE:ask pick one' });
    const drawn = await awaitEvent(events, 'menu-drawn', t0 - 1);
    const shown = await Promise.race([seen, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('the menu did not show on the page within 10 s')), 10_000))]);
    samples.push(shown - drawn.t);
    daemonSamples.push((await watched.done) - drawn.t);
    await d.rpc('keys', { id, key: 'enter' });
    const r = await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
    if (r.reason !== 'settled') throw new Error(`worker did not settle after the answer: ${JSON.stringify(r)}`);
    log(`trial ${i + 1}/${trials}: page ${round(samples.at(-1)!)} ms, daemon ${round(daemonSamples.at(-1)!)} ms`);
  }
  const out = {
    name: 'review page: menu drawn → question visible on the open page',
    unit: 'ms',
    n: samples.length,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    max: round(Math.max(...samples)),
    target: 250,
    daemonP50: round(percentile(daemonSamples, 50)),
    daemonP95: round(percentile(daemonSamples, 95)),
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg().map((x) => round(x, 2)),
  };
  console.log(JSON.stringify(out));
} finally {
  await runCleanups(log);
}
