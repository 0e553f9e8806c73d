/**
 * Rule: the page's rate limit is per session, and requests without a valid session cannot spend
 * the person's (issue 37 item 4). The limit was per client address, and on loopback every caller
 * is 127.0.0.1: a hostile run's unauthenticated cross-site posts used up the budget and the
 * person's own clicks got 429. Here 200 such requests of every kind (cross-site posts with no
 * cookie, a made-up cookie, the standing token as a cookie, wrong tokens and codes) run first;
 * the person's session then still reads and acts (200). The clock stands still, so no bucket
 * refills while they run. On the old code the person's post was 429.
 */
import { describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '../../actors/review/auth.ts';
import { pageWithClock, postCode, signInWithToken, type PageSession } from '../helpers/review-session.ts';

const approved: unknown[] = [];
const served = { approve: async (p: unknown) => (approved.push(p), { id: 'w', gate: 'brief-approved', stage: 'running.working', worktree: '', branch: '', created: {} }) };

function act(origin: string, s: PageSession): Promise<Response> {
  return fetch(`${origin}/api/approve`, { method: 'POST', headers: { cookie: s.cookie, [TOKEN_HEADER]: s.csrf, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, body: '{"id":"w"}' });
}

describe("requests without a session cannot spend the person's budget", () => {
  it('200 unauthenticated cross-site posts and sign-in guesses, then the person still gets 200', async () => {
    const page = await pageWithClock({ served: served as never });
    try {
      const person = await signInWithToken(page.origin, page.token);
      const evil = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' };
      const attacks: (() => Promise<Response>)[] = [
        () => fetch(`${page.origin}/api/approve`, { method: 'POST', headers: evil, body: '{"id":"w"}' }),
        () => fetch(`${page.origin}/api/approve`, { method: 'POST', headers: { ...evil, cookie: `hand_review=${'f'.repeat(64)}` }, body: '{"id":"w"}' }),
        () => fetch(`${page.origin}/api/approve`, { method: 'POST', headers: { ...evil, cookie: `hand_review=${page.token}`, [TOKEN_HEADER]: page.token }, body: '{"id":"w"}' }),
        () => fetch(`${page.origin}/?token=${'0'.repeat(64)}`, { redirect: 'manual', headers: { 'sec-fetch-site': 'cross-site' } }),
        () => postCode(`${page.origin}/login`, 'e'.repeat(32)),
      ];
      const seen = new Map<number, number>();
      for (let i = 0; i < 200; i++) {
        const st = (await attacks[i % attacks.length]!()).status;
        seen.set(st, (seen.get(st) ?? 0) + 1);
      }
      expect([...seen.keys()].sort(), 'every attack refused (403), then held back (429)').toEqual([403, 429]);
      expect(approved, 'no attack reached the handler').toEqual([]);

      expect((await fetch(`${page.origin}/`, { headers: { cookie: person.cookie } })).status).toBe(200);
      const mine = await act(page.origin, person);
      expect(mine.status, await mine.clone().text()).toBe(200);
      expect(approved).toHaveLength(1);
    } finally {
      await page.close();
    }
  });

  it("each session spends only its own budget: one spent session leaves another's whole", async () => {
    const page = await pageWithClock({ served: served as never });
    try {
      const busy = await signInWithToken(page.origin, page.token);
      const other = await signInWithToken(page.origin, page.token);
      // Spent until refused (30 at once: page-gate.ts), bounded.
      const statuses: number[] = [];
      let over: Response | undefined;
      for (let i = 0; i < 100 && !over; i++) {
        const res = await act(page.origin, busy);
        if (res.status === 429) over = res;
        else statuses.push(res.status);
      }
      expect(over, `no 429 in 100 posts: ${statuses.join(' ')}`).toBeDefined();
      expect(statuses.length).toBeGreaterThanOrEqual(10);
      expect(statuses.every((st) => st === 200), statuses.join(' ')).toBe(true);
      expect(over!.headers.get('retry-after')).toBe('1');
      expect(await over!.text()).toContain("this session's budget is spent");
      expect((await act(page.origin, other)).status, 'the other session').toBe(200);
      page.advance(1000);
      expect((await act(page.origin, busy)).status, 'a second later the bucket has refilled').toBe(200);
    } finally {
      await page.close();
    }
  });
});
