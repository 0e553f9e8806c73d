/**
 * Screenshots of the review page from a real run, for the README: a daemon, tmux and mock
 * workers in a throwaway world (one blocked on a question, one at its landing gate with a real
 * commit, one at its brief gate, one idle, one stopped), photographed in headless Chromium at
 * 1280 px and 390 px. `node --import tsx scripts/review-screenshots.ts` writes docs/review/*.png.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedWorld, worldEnv, writeBrief } from '../tests/helpers/hand-world.ts';
import { handRunner, stopInstallation } from '../tests/helpers/hand-process.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { commitAndReport, dispatchMock, reviewUrl, waitUntil } from '../tests/helpers/review-steps.ts';

const OUT = fileURLToPath(new URL('../docs/review/', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'kh-shots-')));
const home = join(root, 'state');
const { repo, agentHome } = seedWorld(root, '# shop\n\nA small shop.\n');
const env = worldEnv(agentHome, {
  KH_MOCK_TICK_MS: '200',
  GIT_AUTHOR_NAME: 'worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid',
});
const hand = handRunner(home, env, 60_000);
const log = (m: string) => console.error(`[shots] ${m}`);

const SEARCH_TS = [
  'export interface Item { name: string; price: number }',
  '',
  '/** Items whose name contains the query, cheapest first. */',
  'export function search(items: Item[], query: string): Item[] {',
  '  const q = query.trim().toLowerCase();',
  '  return items.filter((i) => i.name.toLowerCase().includes(q)).sort((a, b) => a.price - b.price);',
  '}',
].join('\\n');

try {
  await hand(['annex', repo, '--name', 'shop', '--posture', 'local-only']);
  const brief = (name: string, task: string) => {
    const p = writeBrief(root, name, task);
    return p;
  };

  // At its landing gate, with a real commit.
  const search = await dispatchMock(hand, 'add-search', repo, brief('add-search', 'Add a search helper for the catalogue: items whose name contains the query, cheapest first.\n\n- keep it pure\n- one file, `search.ts`'), { KH_MOCK_RUN_BASH: '1' });
  await hand(['approve', 'add-search']);
  await waitUntil(hand, 'add-search', 'settled');
  await commitAndReport(hand, 'add-search', search.reportPath, `printf '${SEARCH_TS}\\n' > search.ts && git add search.ts && git commit -q -m "Add a catalogue search helper"`);
  writeFileSync(search.reportPath, '# Report\n\n## Summary\nAdded `search.ts`: a pure helper that filters the catalogue by name and sorts by price.\n\n## Checks\n- `npx tsc --noEmit`: clean\n- no other file touched\n');
  const landed = await hand(['land', 'add-search', '--json']);
  if (landed.code !== 0) throw new Error(`hand land failed: ${landed.stderr}`);

  // Blocked on a question.
  const askBrief = join(root, 'fix-login.md');
  writeFileSync(askBrief, '# Brief fix-login\n\n## Read first\n\nNothing.\n\n## Task\n\nThe login form loses the session on reload. MODE:ask\n');
  await dispatchMock(hand, 'fix-login', repo, askBrief);
  await hand(['approve', 'fix-login']);
  await waitUntil(hand, 'fix-login', 'blocked');

  // At its brief gate; idle; stopped.
  await dispatchMock(hand, 'tidy-readme', repo, brief('tidy-readme', 'Tidy the README: one paragraph per section.'));
  await dispatchMock(hand, 'bump-deps', repo, brief('bump-deps', 'Bump the patch versions of the dependencies.'));
  await hand(['approve', 'bump-deps']);
  await waitUntil(hand, 'bump-deps', 'settled');
  await dispatchMock(hand, 'old-spike', repo, brief('old-spike', 'Try a spike; it will be stopped.'));
  await hand(['approve', 'old-spike']);
  await waitUntil(hand, 'old-spike', 'settled');
  await hand(['stop', 'old-spike']);

  const { url, origin } = await reviewUrl(hand);
  const browser = await launchChromium();
  try {
    for (const [width, height, tag] of [[1280, 900, '1280'], [390, 844, '390']] as const) {
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForSelector('#live.on');
      await page.screenshot({ path: join(OUT, `fleet-${tag}.png`), fullPage: true });
      for (const id of ['add-search', 'fix-login']) {
        await page.goto(`${origin}/w/${id}`);
        await page.waitForSelector('#live.on');
        // The diff coloured by language (highlight.js classes from the diff2html UI bundle).
        if (id === 'add-search') await page.waitForSelector('#diff[data-highlighted] .d2h-ins .hljs-keyword', { timeout: 10_000 });
        const full = await page.evaluate(() => (globalThis as any).document.documentElement.scrollHeight as number);
        await page.screenshot({ path: join(OUT, `worker-${id}-${tag}.png`), fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(full, width > 600 ? 2600 : 3200) } });
        log(`worker ${id} at ${tag}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  log(`written to ${OUT}`);
} finally {
  await stopInstallation(hand, home, 20_000);
  rmSync(root, { recursive: true, force: true });
}
