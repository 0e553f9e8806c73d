/**
 * The review page's HTTP server (Node's own http). It reads the fleet host and the store, and
 * every action it offers calls the daemon's own request handler of the same name — the one
 * `hand approve`, `hand reject`, `hand land`, `hand stop` and `hand decide` reach over the socket — so the page
 * and the CLI share one implementation and one set of refusals. Live updates are Server-Sent
 * Events fed by the fleet host's subscribe (what `hand wait` and `hand watch` use) and by the
 * terminal host's pane events.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { HandError } from '../../contract/errors.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../fleet-api.ts';
import { toWireError, type CallContext, type ServedMethods, type WireObject } from '../../contract/protocol.ts';
import { allowedHosts, loadOrCreateToken, refusal, reviewBindAddress, reviewPort, sameToken, sessionCookie, TOKEN_HEADER } from './auth.ts';
import { asset } from './assets-serve.ts';
import { fleetPage } from './render-fleet.ts';
import { workerPage } from './render-worker.ts';
import { workerDetails } from './worker-details.ts';
import { openStream, questionsOf, type ScreenSource } from './stream.ts';
import { esc } from './html.ts';
import { openDecisionsOf } from './decision-form.ts';
import { createLoginCodes, CODE_TTL_MS } from './login-codes.ts';
import { createRateLimit } from './rate-limit.ts';

/** The daemon handlers the page may call, by the name the CLI uses. */
export const PAGE_ACTIONS = ['approve', 'reject', 'land', 'stop', 'decide', 'answer'] as const;
type PageAction = (typeof PAGE_ACTIONS)[number];
const isWireObject = (v: unknown): v is WireObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPageAction = (name: string): name is PageAction => (PAGE_ACTIONS as readonly string[]).includes(name);

export interface ReviewDeps {
  home: string;
  fleet: FleetHostApi;
  store: Pick<FleetStore, 'getWorker' | 'getProject' | 'journal'>;
  /** The daemon's methods behind their edge parsers (the page posts raw JSON, as the socket does). */
  served: ServedMethods;
  screens: ScreenSource;
  env?: Record<string, string | undefined>;
  log?: (obj: Record<string, unknown>, msg: string) => void;
  /** The clock login codes expire by (tests). */
  now?: () => number;
  /** How long a login code is good for (default CODE_TTL_MS). */
  loginTtlMs?: number;
}

export interface ReviewServer {
  port: number;
  host: string;
  /** The URL with the token: what `hand review` prints. */
  url: string;
  /** A URL with a fresh one-time login code instead of the token: what `hand review --open` hands the browser. */
  loginUrl(): string;
  close(): Promise<void>;
}

export function reviewInfoPath(home: string): string {
  return join(home, 'review.json');
}

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function tooMany(res: ServerResponse, retryAfter: number, asJson: boolean): void {
  const message = `too many requests from this client; try again in ${retryAfter} s`;
  if (asJson) return send(res, 429, 'application/json; charset=utf-8', JSON.stringify({ ok: false, error: { code: 'rate-limited', message } }), { 'retry-after': String(retryAfter) });
  send(res, 429, 'text/plain; charset=utf-8', message, { 'retry-after': String(retryAfter) });
}

function forbidden(res: ServerResponse, why: string, asJson: boolean): void {
  if (asJson) return sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: `refused: ${why}` } });
  send(res, 403, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>refused · kingshand</title></head><body><h1>Refused</h1><p>${esc(why)}.</p><p>Run <code>hand review</code> and open the URL it prints.</p></body></html>`);
}

/** The largest action body the page reads: a decision's answer or a reject reason, far below. */
export const MAX_BODY_BYTES = 16_384;

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        // Answered 413 by the caller; the rest is read and dropped, never kept (a dropped
        // connection left the browser with no reason).
        chunks.length = 0;
        reject(new BodyTooLarge(`request body over ${limit} bytes`));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** HTTP status for a handler's typed error: bad usage 400, refused 409, the rest 500. */
function statusOf(err: unknown): number {
  if (err instanceof HandError) return err.exitCode === 2 ? 400 : 409;
  return 500;
}

export async function startReviewServer(deps: ReviewDeps): Promise<ReviewServer> {
  const env = deps.env ?? process.env;
  const bind = reviewBindAddress(env);
  const token = loadOrCreateToken(deps.home);
  const postureOf = (project: string) => deps.store.getProject(project)?.posture ?? null;
  let hosts = new Set<string>();
  const streams = new Set<() => void>();
  const codes = createLoginCodes(deps.now, deps.loginTtlMs ?? CODE_TTL_MS);
  // Sign-ins (token or code, right or wrong) and state-changing requests, per client address:
  // enough for a person clicking, too few for guessing a code or flooding the actions.
  const signIns = createRateLimit({ burst: 10, perSecond: 0.2 }, deps.now);
  const actions = createRateLimit({ burst: 30, perSecond: 5 }, deps.now);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    let path: string;
    try {
      url = new URL(req.url ?? '/', 'http://review.invalid');
      // A malformed percent-escape (`/w/%E0%A4%A`) is the client's mistake: 400, never a 500.
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'bad request: the address has a malformed percent-escape');
    }
    const method = req.method ?? 'GET';
    const facts = { method, host: header(req, 'host'), origin: header(req, 'origin'), secFetchSite: header(req, 'sec-fetch-site'), cookie: header(req, 'cookie'), tokenHeader: header(req, TOKEN_HEADER) };

    if (method === 'GET' && path.startsWith('/assets/')) {
      const hostOnly = refusal({ ...facts, cookie: `hand_review=${token}` }, token, hosts, false);
      if (hostOnly) return forbidden(res, hostOnly, false);
      const a = asset(path.slice('/assets/'.length));
      if (!a) return send(res, 404, 'text/plain; charset=utf-8', 'not found');
      return send(res, 200, a.type, a.body, { 'cache-control': 'no-cache' });
    }

    // The token from `hand review`'s URL, or a one-time login code from `hand review --open`,
    // becomes the session cookie and leaves the address bar.
    const client = req.socket.remoteAddress ?? 'unknown';
    const given = url.searchParams.get('token');
    const login = url.searchParams.get('login');
    if (method === 'GET' && (given !== null || login !== null)) {
      const hostBad = refusal({ ...facts, cookie: `hand_review=${token}` }, token, hosts, false);
      if (hostBad) return forbidden(res, hostBad, false);
      if (!signIns.take(client)) return tooMany(res, signIns.retryAfter(client), false);
      if (given !== null && !sameToken(given, token)) return forbidden(res, 'wrong token', false);
      if (given === null && !codes.redeem(login ?? '')) return forbidden(res, 'this login code was used already, has expired or is wrong: run hand review --open again', false);
      url.searchParams.delete('token');
      url.searchParams.delete('login');
      const clean = `${path}${url.search}`;
      return send(res, 303, 'text/plain; charset=utf-8', 'signed in', { location: clean, 'set-cookie': sessionCookie(token) });
    }

    const stateChanging = method !== 'GET' && method !== 'HEAD';
    if (stateChanging && !actions.take(client)) return tooMany(res, actions.retryAfter(client), true);
    const why = refusal(facts, token, hosts, stateChanging);
    if (why) return forbidden(res, why, path.startsWith('/api/') || path === '/events');

    if (method === 'GET' && path === '/') {
      const views = deps.fleet.views();
      return send(res, 200, 'text/html; charset=utf-8', fleetPage(views, postureOf, token, await questionsOf(deps.screens, views)));
    }

    if (method === 'GET' && path.startsWith('/w/')) {
      const id = path.slice(3);
      const view = deps.fleet.view(id);
      if (!view) return send(res, 404, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>no such worker · kingshand</title></head><body><p>No worker named ${esc(id)}. <a href="/">Back to the fleet</a>.</p></body></html>`);
      const [details, screen, decisions] = await Promise.all([workerDetails(view, deps.store), deps.screens.read(view), openDecisionsOf(deps.served, view)]);
      return send(res, 200, 'text/html; charset=utf-8', workerPage(view, details, screen.html, token, screen.question, decisions));
    }

    if (method === 'GET' && path === '/events') {
      const worker = url.searchParams.get('worker');
      if (worker !== null && !deps.fleet.view(worker)) return sendJson(res, 404, { ok: false, error: { code: 'unknown-worker', message: `no worker named ${worker}` } });
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
      const close = openStream(res, { fleet: deps.fleet, store: deps.store, screens: deps.screens, postureOf, worker, decisionsOf: (v) => openDecisionsOf(deps.served, v) });
      streams.add(close);
      req.on('close', () => {
        streams.delete(close);
        close();
      });
      return;
    }

    if (method === 'POST' && path.startsWith('/api/')) {
      const name = path.slice('/api/'.length);
      const handler: ((raw: WireObject, ctx: CallContext) => Promise<unknown>) | undefined = isPageAction(name) ? deps.served[name] : undefined;
      if (!handler) return sendJson(res, 404, { ok: false, error: { code: 'unknown-action', message: `no action ${name}` } });
      if (!(header(req, 'content-type') ?? '').startsWith('application/json')) return sendJson(res, 415, { ok: false, error: { code: 'bad-request', message: 'send JSON' } });
      let params: WireObject;
      try {
        const parsed: unknown = JSON.parse(await readBody(req));
        if (!isWireObject(parsed)) throw new Error('not an object');
        params = parsed;
      } catch (err) {
        if (err instanceof BodyTooLarge) {
          res.on('finish', () => req.socket.destroy());
          return send(res, 413, 'application/json; charset=utf-8', JSON.stringify({ ok: false, error: { code: 'request-too-large', message: `${err.message}; the page's actions are small` } }), { connection: 'close' });
        }
        return sendJson(res, 400, { ok: false, error: { code: 'bad-request', message: `request is not a JSON object (${(err as Error).message})` } });
      }
      const aborter = new AbortController();
      res.on('close', () => aborter.abort());
      const started = Date.now();
      try {
        const result = await handler(params, { progress: () => {}, signal: aborter.signal });
        deps.log?.({ method: name, via: 'review', ms: Date.now() - started }, 'request');
        return sendJson(res, 200, { ok: true, result });
      } catch (err) {
        const wire = toWireError(err);
        deps.log?.({ method: name, via: 'review', ms: Date.now() - started, code: wire.code, err: wire.message }, 'request failed');
        return sendJson(res, statusOf(err), { ok: false, error: wire });
      }
    }
    if (method === 'OPTIONS') return send(res, 405, 'text/plain; charset=utf-8', 'no cross-origin requests here', { allow: 'GET, POST' });
    return send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      deps.log?.({ err: String(err), url: req.url }, 'review request failed');
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: toWireError(err) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(reviewPort(env), bind, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(bind, port);
  const hostPart = bind.includes(':') ? `[${bind}]` : bind;
  const base = `http://${hostPart}:${port}`;
  const info = reviewInfoPath(deps.home);
  writeFileSync(info, `${JSON.stringify({ url: `${base}/`, host: bind, port, pid: process.pid })}\n`, { mode: 0o600 });
  chmodSync(info, 0o600);
  return {
    port,
    host: bind,
    url: `${base}/?token=${token}`,
    loginUrl: () => `${base}/?login=${codes.issue()}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const close of streams) close();
        streams.clear();
        rmSync(info, { force: true });
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
