/**
 * One browser check in a real headless Chromium (issue 40): Debian's `chromium` package driven
 * by playwright-core, which ships no browser — nothing is downloaded. It runs where the worker
 * runs, inside kingshand's sandbox: Chromium's own sandbox cannot be built there (no capability,
 * no setuid helper, a user namespace already in use), so it starts with --no-sandbox, the worker's
 * sandbox being the boundary; /dev/shm is not relied on (--disable-dev-shm-usage) and its profile
 * goes in the worker's own /tmp. A browser that is missing or does not start is `not checked`
 * with the reason, never verified; a page that does not load is observed as such (failed).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Observation } from './checks-record.ts';
import { fold, OBSERVED_TEXT_CAP } from './checks-record.ts';

/** Where the person's Chromium is (Debian: /usr/bin/chromium); HAND_CHROMIUM names another. */
export const CHROMIUM_ENV = 'HAND_CHROMIUM';
export const DEFAULT_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export interface CheckAction {
  kind: 'click' | 'fill';
  selector: string;
  /** For fill: the text typed. */
  value?: string;
}

export interface CheckRequest {
  url: string;
  selector: string | null;
  expect: string[];
  expectNot: string[];
  actions: CheckAction[];
  timeoutMs: number;
}

export type CheckRun = { observed: Observation } | { notChecked: string };

/** The Chromium to start, or why there is none. */
export function findChromium(env: Record<string, string | undefined>): { path: string } | { missing: string } {
  const chosen = env[CHROMIUM_ENV]?.trim();
  if (chosen) return existsSync(chosen) ? { path: chosen } : { missing: `no Chromium at ${chosen} (${CHROMIUM_ENV})` };
  const found = DEFAULT_CHROMIUM.find((p) => existsSync(p));
  return found ? { path: found } : { missing: `no Chromium at ${DEFAULT_CHROMIUM.join(' or ')}: the person installs Debian's package (apt-get install chromium) or sets ${CHROMIUM_ENV}` };
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? 'unknown error';

/** Why a browser did not start: the launch's first line, and the browser's own fatal line when its log has one. */
function launchFailure(err: unknown): string {
  const fatal = /FATAL:[^\]]*\]\s*(.+)/.exec(String((err as Error)?.message ?? ''))?.[1]?.trim().slice(0, 300);
  return fatal ? `${firstLine(err)} (${fatal})` : firstLine(err);
}

/**
 * A temp directory short enough for Chromium's singleton socket: a Unix socket's path holds at most
 * 107 bytes, and a worker's own temp directory (`<state>/agents/<id>/tmp`, its TMPDIR) can be
 * longer than that leaves room for (Chromium then stops: "Socket path too long"). Inside the
 * sandbox /tmp is that same directory, under a short name.
 */
export function shortTempDir(env: Record<string, string | undefined>): string {
  const t = env.TMPDIR || tmpdir();
  if (t.length <= 48) return t;
  try {
    accessSync('/tmp', constants.W_OK);
    return '/tmp';
  } catch {
    return t;
  }
}

export async function runBrowserCheck(req: CheckRequest, env: Record<string, string | undefined> = process.env): Promise<CheckRun> {
  const chromium = findChromium(env);
  if ('missing' in chromium) return { notChecked: chromium.missing };
  let pw: typeof import('playwright-core');
  try {
    pw = await import('playwright-core');
  } catch (err) {
    return { notChecked: `playwright-core is not installed with kingshand (${firstLine(err)})` };
  }
  let browser: import('playwright-core').Browser;
  try {
    const launchEnv: Record<string, string> = { ...(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>), TMPDIR: shortTempDir(env) };
    browser = await pw.chromium.launch({ executablePath: chromium.path, headless: true, timeout: req.timeoutMs, env: launchEnv, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  } catch (err) {
    return { notChecked: `Chromium at ${chromium.path} did not start: ${launchFailure(err)}` };
  }
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(req.timeoutMs);
    const base = { url: req.url, selector: req.selector, expect: req.expect, expectNot: req.expectNot, actions: req.actions.map((a) => `${a.kind} ${a.selector}`), browser: `Chromium ${browser.version()}` };
    let status: number | null = null;
    try {
      status = (await page.goto(req.url, { waitUntil: 'load', timeout: req.timeoutMs }))?.status() ?? null;
    } catch (err) {
      return { observed: { ...base, finalUrl: req.url, status: null, title: '', text: '', loadError: firstLine(err) } };
    }
    for (const a of req.actions) {
      if (a.kind === 'click') await page.click(a.selector);
      else await page.fill(a.selector, a.value ?? '');
    }
    if (req.actions.length) await page.waitForLoadState('load').catch(() => undefined);
    let text: string;
    if (req.selector) {
      const el = await page.waitForSelector(req.selector, { state: 'attached', timeout: req.timeoutMs }).catch(() => null);
      text = el ? await el.innerText().catch(async () => (await el.textContent()) ?? '') : '';
    } else {
      text = await page.innerText('body').catch(() => '');
    }
    return { observed: { ...base, finalUrl: page.url(), status, title: (await page.title()).slice(0, 300), text: fold(text).slice(0, OBSERVED_TEXT_CAP), loadError: null } };
  } catch (err) {
    // The page loaded, then an action or a read failed (a selector that never appears): observed as a failure.
    return { observed: { url: req.url, finalUrl: req.url, status: null, title: '', text: '', selector: req.selector, expect: req.expect, expectNot: req.expectNot, actions: req.actions.map((a) => `${a.kind} ${a.selector}`), browser: `Chromium ${browser.version()}`, loadError: `the check did not finish: ${firstLine(err)}` } };
  } finally {
    await browser.close().catch(() => undefined);
  }
}
