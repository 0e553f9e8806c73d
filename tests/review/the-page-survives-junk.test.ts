/**
 * Issue 25 #5: the review page answers junk with the right status and goes on serving. A body
 * over its limit is 413 (it dropped the connection); a malformed percent-escape is 400 (a 500);
 * a prototype name such as `/assets/constructor` is 404 (a 500: assets were looked up in a plain
 * object). The real HTTP server in process, with a fleet of no workers: the routing is the point.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { MAX_BODY_BYTES } from '../../actors/review/server.ts';
import { TOKEN_HEADER } from '../../actors/review/auth.ts';
import { pageWithClock, signInWithToken, type ClockedPage, type PageSession } from '../helpers/review-session.ts';

let page: ClockedPage;
let session: PageSession;

beforeAll(async () => {
  page = await pageWithClock({ served: { approve: async () => ({ id: 'w', gate: 'brief-approved', stage: 'running.working', worktree: '', branch: '', created: {} }) } });
  session = await signInWithToken(page.origin, page.token);
});
afterAll(() => page.close());

/** One raw request (the path is sent as written, never normalised); resolves with the status, bounded. */
function hit(method: string, path: string, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const origin = page.origin;
    const headers: Record<string, string> = { cookie: session.cookie, [TOKEN_HEADER]: session.csrf, origin, 'sec-fetch-site': 'same-origin' };
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
    const req = request({ host: '127.0.0.1', port: page.server.port, method, path, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('the page survives junk', () => {
  it('a body over the limit is answered 413 naming the bound, and the page goes on serving', async () => {
    const r = await hit('POST', '/api/approve', Buffer.alloc(MAX_BODY_BYTES * 4, 0x20));
    expect(r.status).toBe(413);
    expect(r.text).toContain(String(MAX_BODY_BYTES));
    expect((await hit('POST', '/api/approve', Buffer.from('{}'))).status).toBe(200);
  });

  it('a malformed percent-escape is 400', async () => {
    expect((await hit('GET', '/w/%E0%A4%A')).status).toBe(400);
    expect((await hit('GET', '/w/%zz')).status).toBe(400);
  });

  it('prototype names are 404', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect((await hit('GET', `/assets/${name}`)).status, name).toBe(404);
      expect((await hit('POST', `/api/${name}`, Buffer.from('{}'))).status, name).toBe(404);
    }
    expect((await hit('GET', '/assets/review.css')).status).toBe(200);
  });
});
