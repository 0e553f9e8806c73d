/**
 * Rule: the review token is never in an argv (issue 24 item 5). `hand review --open` started the
 * browser with the full `?token=` URL; another local account read it from /proc/<pid>/cmdline,
 * took the cookie with curl and landed a worker. Now the browser gets `?login=<code>`: good once,
 * for a minute, exchanged for the session cookie. Sign-ins and state-changing requests are
 * rate-limited per client. The opener is the real process start of the real binary: `xdg-open`
 * on its PATH is a script that records its own command line.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { CODE_TTL_MS } from '../../actors/review/login-codes.ts';
import { startReviewServer, type ReviewServer } from '../../actors/review/server.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld();

/** The real page server in process, with a fleet of no workers and a clock the test moves. */
async function pageWithClock(): Promise<{ server: ReviewServer; advance(ms: number): void; close(): Promise<void> }> {
  const tmp = makeTempDir('review-clock');
  let now = 1_000_000;
  const server = await startReviewServer({
    home: tmp.path,
    fleet: { views: () => [], view: () => undefined, subscribe: () => () => undefined } as never,
    store: { getWorker: () => undefined, getProject: () => undefined, journal: () => [] } as never,
    served: {} as never,
    screens: { read: async () => ({ html: '', question: null }), question: async () => null, watch: () => () => undefined } as never,
    env: {},
    now: () => now,
  });
  return {
    server,
    advance: (ms) => void (now += ms),
    async close() {
      await server.close();
      tmp.cleanup();
    },
  };
}

describe('hand review --open hands the browser a one-time code, never the token', () => {
  it('the opened command line holds no token; its login code signs in once, then never again', async () => {
    const w = await makeWorld('review-open', { binary: true });
    const seen = join(w.root, 'browser-argv.txt');
    mkdirSync(join(w.root, 'bin'));
    const browser = join(w.root, 'bin', 'xdg-open');
    writeFileSync(browser, `#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/cmdline > ${JSON.stringify(`${seen}.tmp`)} && mv ${JSON.stringify(`${seen}.tmp`)} ${JSON.stringify(seen)}\n`);
    chmodSync(browser, 0o755);
    const r = await w.hand(['review', '--open', '--json'], { env: { PATH: `${join(w.root, 'bin')}:${w.env.PATH}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.loginUrl, 'the code is for the browser only').toBeUndefined();
    await waitFor(() => existsSync(seen), { timeoutMs: 10_000, what: 'the browser script to record its command line' });
    const argv = readFileSync(seen, 'utf8');
    const token = readFileSync(join(w.home, 'review.token'), 'utf8').trim();
    expect(argv).not.toContain(token);
    expect(argv).not.toContain('token=');
    const opened = argv.trim().split('\n').at(-1)!;
    expect(opened).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?login=[0-9a-f]{32}$/);

    const first = await fetch(opened, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('set-cookie')).toMatch(/^hand_review=[0-9a-f]{64}; HttpOnly; SameSite=Strict/);
    const second = await fetch(opened, { redirect: 'manual' });
    expect(second.status, 'a code is good once').toBe(403);
    expect(await second.text()).toContain('used already, has expired or is wrong');
  });

  it('a login code expires', async () => {
    const page = await pageWithClock();
    try {
      const late = page.server.loginUrl();
      const onTime = page.server.loginUrl();
      expect((await fetch(onTime, { redirect: 'manual' })).status).toBe(303);
      page.advance(CODE_TTL_MS);
      expect((await fetch(late, { redirect: 'manual' })).status, 'a minute later').toBe(403);
    } finally {
      await page.close();
    }
  });

  it('sign-in attempts and state-changing requests are rate-limited per client', async () => {
    // The clock stands still: no bucket refills while the requests are made, however slow the machine.
    const page = await pageWithClock();
    try {
      const origin = `http://127.0.0.1:${page.server.port}`;
      const guesses: number[] = [];
      for (let i = 0; i < 12; i++) guesses.push((await fetch(`${origin}/?login=${'0'.repeat(32)}`, { redirect: 'manual' })).status);
      expect(guesses.slice(0, 10).every((st) => st === 403), guesses.join(' ')).toBe(true);
      expect(guesses.slice(10), 'the eleventh guess on is refused unread').toEqual([429, 429]);
      const posts: number[] = [];
      for (let i = 0; i < 32; i++) posts.push((await fetch(`${origin}/api/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
      expect(posts.slice(0, 30).every((st) => st === 403), posts.join(' ')).toBe(true);
      expect(posts.slice(30)).toEqual([429, 429]);
      page.advance(1000);
      expect((await fetch(`${origin}/api/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 'a second later the bucket has refilled').toBe(403);
    } finally {
      await page.close();
    }
  });
});
