/**
 * The review page answers an open decision through the daemon's own `decide` handler (real
 * daemon, tmux, mock agent, the page over real HTTP): the worker page shows the form under the
 * decision's key; an answer posted with the session and the header token is typed into the
 * worker; the same post again comes back as a readable refusal (409, decision-closed); a post
 * without the header token is refused (403) and changes nothing; a declined variant closes one.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parkedWorld, useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';
import { signInWithToken } from '../helpers/review-session.ts';

const makeWorld = useCliWorld();

describe('the review page decides', () => {
  it('answers and declines an open decision through the decide handler; a refusal comes back readable', async () => {
    const { w, ok, key } = await parkedWorld(makeWorld, 'review-decide', ['p1', 'p2']);

    const r = await w.hand(['review']);
    expect(r.code, r.stderr).toBe(0);
    const url = new URL(r.stdout.split('\n')[0]!);
    const base = `${url.protocol}//${url.host}`;
    const { cookie, csrf } = await signInWithToken(base, url.searchParams.get('token')!);
    const page = await (await fetch(`${base}/w/p1`, { headers: { cookie } })).text();
    expect(page).toContain(`data-action="decide" data-id="p1" data-key="${key('p1')}"`);
    expect(page).toContain('<option value="Postgres">');

    const post = (body: Record<string, unknown>, withToken = true) =>
      fetch(`${base}/api/decide`, { method: 'POST', headers: { cookie, origin: base, 'content-type': 'application/json', ...(withToken ? { 'x-hand-token': csrf } : {}) }, body: JSON.stringify(body) });

    const forged = await post({ id: 'p1', key: key('p1'), answer: 'SQLite' }, false);
    expect(forged.status).toBe(403);
    expect((await ok(['decisions'])).map((d: any) => d.key)).toContain(key('p1'));

    const answered = await post({ id: 'p1', key: key('p1'), answer: 'Postgres' });
    const body = (await answered.json()) as any;
    expect(answered.status, JSON.stringify(body)).toBe(200);
    expect(body.result).toMatchObject({ key: key('p1'), state: 'answered', delivery: 'sent' });
    await waitFor(() => readFileSync(join(w.home, 'workers', 'p1', 'out', 'report.md'), 'utf8').includes('using Postgres as decided') || undefined, { what: "p1's report after the page's answer", timeoutMs: 30_000 });

    const again = await post({ id: 'p1', key: key('p1'), answer: 'SQLite' });
    expect(again.status).toBe(409);
    const refused = (await again.json()) as any;
    expect(refused.error.code).toBe('decision-closed');
    expect(refused.error.message).toContain(`decision ${key('p1')} is already answered ("Postgres")`);

    const declined = await post({ id: 'p2', key: key('p2'), declined: 'not needed' });
    expect(declined.status).toBe(200);
    expect(((await declined.json()) as any).result).toMatchObject({ state: 'declined' });
    expect(await ok(['decisions'])).toEqual([]);
  }, 300_000);
});
