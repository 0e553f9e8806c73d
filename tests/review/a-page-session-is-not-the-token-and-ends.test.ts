/**
 * Rule: signing in to the review page opens a session that is not the standing token, and that
 * ends (issue 37 item 4). The cookie used to be the token itself, so a cookie taken once (a second
 * account that won the race for `hand review --open`'s code) was access for good. Now: a random
 * session id in the cookie, a per-session header token on the page, an end after IDLE_MS unused or
 * MAX_AGE_MS in all (an injected clock moves time), and `hand review --sign-out-all` or a daemon
 * restart ends every one. On the old code the cookie was the token and a `hand_review=<token>`
 * cookie opened the page.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDLE_MS, MAX_AGE_MS, MAX_SESSIONS } from '../../actors/review/sessions.ts';
import { TOKEN_HEADER } from '../../actors/review/auth.ts';
import { pageWithClock, signInWithToken, type PageSession } from '../helpers/review-session.ts';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

const approveOk = { approve: async () => ({ id: 'w', gate: 'brief-approved', stage: 'running.working', worktree: '', branch: '', created: {} }) };

function post(origin: string, s: Pick<PageSession, 'cookie'>, csrf: string): Promise<Response> {
  return fetch(`${origin}/api/approve`, { method: 'POST', headers: { cookie: s.cookie, [TOKEN_HEADER]: csrf, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, body: '{"id":"w"}' });
}
const pageStatus = async (origin: string, cookie: string) => (await fetch(`${origin}/`, { headers: { cookie } })).status;

describe('a page session is not the token, and it ends', () => {
  it('the cookie and the header token are a session\'s own; the standing token as a cookie or header opens nothing', async () => {
    const page = await pageWithClock({ served: approveOk as never });
    try {
      const a = await signInWithToken(page.origin, page.token);
      const b = await signInWithToken(page.origin, page.token);
      for (const s of [a, b]) {
        expect(s.id).toMatch(/^[0-9a-f]{64}$/);
        expect(s.id).not.toBe(page.token);
        expect(s.csrf).not.toBe(page.token);
      }
      expect(a.id, 'each sign-in its own session').not.toBe(b.id);
      expect(a.csrf).not.toBe(b.csrf);
      expect(await pageStatus(page.origin, a.cookie)).toBe(200);
      expect(await pageStatus(page.origin, `hand_review=${page.token}`), 'the token is no cookie').toBe(403);
      expect((await post(page.origin, a, a.csrf)).status).toBe(200);
      expect((await post(page.origin, a, b.csrf)).status, "another session's header token").toBe(403);
      expect((await post(page.origin, a, page.token)).status, 'the standing token as the header').toBe(403);
      expect((await post(page.origin, { cookie: `hand_review=${page.token}` }, page.token)).status).toBe(403);
    } finally {
      await page.close();
    }
  });

  it(`a session ends after ${IDLE_MS / 3_600_000} h unused, and after ${MAX_AGE_MS / 3_600_000} h however busy`, async () => {
    const page = await pageWithClock();
    try {
      const idle = await signInWithToken(page.origin, page.token);
      const busy = await signInWithToken(page.origin, page.token);
      page.advance(IDLE_MS - 1);
      expect(await pageStatus(page.origin, busy.cookie), 'used just before its idle bound').toBe(200);
      page.advance(1);
      expect(await pageStatus(page.origin, idle.cookie), 'unused for the idle bound').toBe(403);
      expect(await pageStatus(page.origin, idle.cookie), 'and it stays ended').toBe(403);
      // Used every hour, the busy one lives until its absolute bound.
      const hour = 3_600_000;
      let elapsed = IDLE_MS;
      while (elapsed + hour < MAX_AGE_MS) {
        page.advance(hour);
        elapsed += hour;
        expect(await pageStatus(page.origin, busy.cookie), `at ${elapsed / hour} h`).toBe(200);
      }
      page.advance(MAX_AGE_MS - elapsed);
      expect(await pageStatus(page.origin, busy.cookie), 'at the absolute bound').toBe(403);
      const again = await signInWithToken(page.origin, page.token);
      expect(await pageStatus(page.origin, again.cookie), 'the token signs in again').toBe(200);
    } finally {
      await page.close();
    }
  });

  it(`at most ${MAX_SESSIONS} sessions: one more ends the least recently used`, async () => {
    const page = await pageWithClock();
    try {
      const first = await signInWithToken(page.origin, page.token);
      const second = await signInWithToken(page.origin, page.token);
      for (let i = 2; i < MAX_SESSIONS; i++) await signInWithToken(page.origin, page.token);
      expect(await pageStatus(page.origin, first.cookie)).toBe(200); // now the most recently used
      await signInWithToken(page.origin, page.token);
      expect(await pageStatus(page.origin, second.cookie), 'the least recently used ended').toBe(403);
      expect(await pageStatus(page.origin, first.cookie)).toBe(200);
    } finally {
      await page.close();
    }
  });

  it('signing out everywhere ends every session at once, its open event stream included', async () => {
    const page = await pageWithClock();
    try {
      const s = await signInWithToken(page.origin, page.token);
      const events = await fetch(`${page.origin}/events`, { headers: { cookie: s.cookie } });
      expect(events.status).toBe(200);
      const reader = events.body!.getReader();
      await reader.read(); // the fleet's first fragment
      expect(page.server.signOutAll()).toEqual({ sessions: 1, codes: 0 });
      const ended = await Promise.race([
        (async () => {
          for (;;) if ((await reader.read()).done) return 'ended';
        })(),
        new Promise((r) => setTimeout(() => r('still open after 5 s'), 5000)),
      ]);
      expect(ended).toBe('ended');
      expect(await pageStatus(page.origin, s.cookie)).toBe(403);
      expect((await fetch(`${page.origin}/events`, { headers: { cookie: s.cookie } })).status, 'the reconnect is refused').toBe(403);
    } finally {
      await page.close();
    }
  });

  it('hand review --sign-out-all and a daemon restart each end every session; the printed URL signs in again', async () => {
    const w = await makeWorld('review-sessions');
    const url = new URL((await w.hand(['review', '--json'])).json.url);
    const token = url.searchParams.get('token')!;
    expect(token).toBe(readFileSync(join(w.home, 'review.token'), 'utf8').trim());
    const s = await signInWithToken(url.origin, token);
    expect(await pageStatus(url.origin, s.cookie)).toBe(200);
    const out = await w.hand(['review', '--sign-out-all', '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.json.signedOut).toEqual({ sessions: 1, codes: 0 });
    expect(await pageStatus(url.origin, s.cookie)).toBe(403);
    const text = await w.hand(['review', '--sign-out-all']);
    expect(text.stdout).toContain('signed out everywhere: 0 session(s) ended');

    const t = await signInWithToken(url.origin, token);
    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    const after = new URL((await w.hand(['review', '--json'])).json.url);
    expect(after.searchParams.get('token'), 'the standing token outlives a restart').toBe(token);
    expect(await pageStatus(after.origin, t.cookie), 'no session does').toBe(403);
    expect(await pageStatus(after.origin, (await signInWithToken(after.origin, token)).cookie)).toBe(200);
  });
});
