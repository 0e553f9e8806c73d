/**
 * The review page's actions are the daemon's methods behind their edge parsers (the same
 * `serveMethods(table, PARAM_PARSERS)` the socket serves): a page post with a bad param is
 * refused with the socket's code and words, and the handler never runs; a good one reaches the
 * handler with the parsed, typed params. The real HTTP server in process, no workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { makeTempDir } from '../helpers/temp.ts';
import { startReviewServer, type ReviewServer } from '../../actors/review/server.ts';
import { TOKEN_HEADER } from '../../actors/review/auth.ts';
import { signInWithToken, type PageSession } from '../helpers/review-session.ts';
import { serveMethods, type Handler, type MethodTable } from '../../contract/protocol.ts';
import type { ParamsOf } from '../../contract/methods.ts';
import { PARAM_PARSERS } from '../../daemon/method-table.ts';

let tmp: ReturnType<typeof makeTempDir>;
let page: ReviewServer;
let session: PageSession;
const rejected: ParamsOf<'reject'>[] = [];

beforeAll(async () => {
  tmp = makeTempDir('review-parsed');
  // Only `reject` is posted here; the rest of the table is never reached.
  const reject: Handler<'reject'> = async (p) => {
    rejected.push(p);
    return { id: p.id, gate: 'rejected', stage: 'done', reason: p.reason };
  };
  const table = { reject } as MethodTable;
  page = await startReviewServer({
    home: tmp.path,
    fleet: { views: () => [], view: () => undefined, subscribe: () => () => undefined } as never,
    store: { getWorker: () => undefined, getProject: () => undefined, journal: () => [] } as never,
    served: serveMethods(table, PARAM_PARSERS),
    screens: { read: async () => ({ html: '', question: null }), question: async () => null, watch: () => () => undefined },
    env: {},
  });
  session = await signInWithToken(`http://127.0.0.1:${page.port}`, new URL(page.url).searchParams.get('token')!);
});
afterAll(async () => {
  await page.close();
  tmp.cleanup();
});

function post(path: string, body: unknown): Promise<{ status: number; json: { ok: boolean; result?: unknown; error?: { code: string; message: string } } }> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const origin = `http://127.0.0.1:${page.port}`;
    const headers = { cookie: session.cookie, [TOKEN_HEADER]: session.csrf, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'content-length': String(data.length) };
    const req = request({ host: '127.0.0.1', port: page.port, method: 'POST', path, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to POST ${path} within 10 s`)));
    req.on('error', reject);
    req.end(data);
  });
}

describe('the page reaches a method only through its parser', () => {
  it('a post without a reason is refused by the parser (reason-required) and the handler never runs; a good one gets the parsed params', async () => {
    const bad = await post('/api/reject', { id: 'w1', reason: '   ' });
    expect(bad.json.error).toMatchObject({ code: 'reason-required' });
    expect(bad.status).toBe(400);
    expect(rejected).toEqual([]);
    const good = await post('/api/reject', { id: 'w1', reason: '  not this way  ', extra: true });
    expect(good.status).toBe(200);
    // trimmed by the parser, the stray field dropped: the handler sees RejectParams only
    expect(rejected).toEqual([{ id: 'w1', reason: 'not this way' }]);
  });
});
