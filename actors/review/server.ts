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
import type { FleetHostApi, WorkerViewLike } from '../fleet-api.ts';
import { explainFsError } from '../../io/fs/why-unwritable.ts';
import { toWireError, type CallContext, type ServedMethods, type WireObject } from '../../contract/protocol.ts';
import { allowedHosts, hostRefusal, loadOrCreateToken, reviewBindAddress, reviewPort, TOKEN_HEADER } from './auth.ts';
import { asset } from './assets-serve.ts';
import { fleetPage, type PageStandings } from './render-fleet.ts';
import { workerPage } from './render-worker.ts';
import { overlapsVia, workerDetails } from './worker-details.ts';
import { openStream, questionsOf, type ScreenSource } from './stream.ts';
import { esc } from './html.ts';
import { openDecisionsOf } from './decision-form.ts';
import { annotationsOf } from './annotations-html.ts';
import { createPageGate } from './page-gate.ts';
import { BodyTooLarge, forbidden, header, readBody, send, sendJson, SECURITY_HEADERS } from './respond.ts';

export { MAX_BODY_BYTES } from './respond.ts';

/** The daemon handlers the page may call, by the name the CLI uses. */
export const PAGE_ACTIONS = ['approve', 'reject', 'land', 'stop', 'decide', 'answer', 'annotate'] as const;
type PageAction = (typeof PAGE_ACTIONS)[number];
const isWireObject = (v: unknown): v is WireObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPageAction = (name: string): name is PageAction => (PAGE_ACTIONS as readonly string[]).includes(name);

export interface ReviewDeps {
  home: string;
  fleet: FleetHostApi;
  store: Pick<FleetStore, 'getWorker' | 'getProject' | 'journal'>;
  /** The daemon's methods behind their edge parsers (the page posts raw JSON, as the socket does). */
  served: ServedMethods;
  /** Each worker's cost and a lost worker's resume, for its row and head (issue 41); absent: none shown. */
  standingsOf?: (views: WorkerViewLike[]) => Promise<PageStandings>;
  screens: ScreenSource;
  env?: Record<string, string | undefined>;
  log?: (obj: Record<string, unknown>, msg: string) => void;
  /**
   * What the person should know above the fleet, one line each (an agent whose installed version
   * was not calibrated, or failed its calibration: calibration-standing.ts). Absent: none.
   */
  notices?: () => Promise<string[]>;
  /** The clock login codes, sessions and rate limits go by (tests). */
  now?: () => number;
  /** How long a login code is good for (default CODE_TTL_MS, login-codes.ts). */
  loginTtlMs?: number;
  /** How long an unused session lives, and any session at most (defaults in sessions.ts). */
  sessionIdleMs?: number;
  sessionMaxAgeMs?: number;
}

export interface ReviewServer {
  port: number;
  host: string;
  /** The URL with the token: what `hand review` prints (it signs in; the cookie is a session). */
  url: string;
  /**
   * The link that signs in and lands on one worker's page, `<base>/w/<id>?token=…` (issue 38 item
   * 3): the token is a query of the worker's own address, so the sign-in's 303 goes to `/w/<id>`.
   * "The page's URL plus `w/<id>`" put the path inside the token (`?token=T/w/<id>`): 403.
   */
  workerUrl(id: string): string;
  /**
   * A new 0600 file holding a fresh one-time login code, which posts it to the page when a
   * browser opens it: what `hand review --open` hands the browser (its path, never the code).
   * With a worker's id the sign-in moves on to that worker's page.
   */
  loginFile(worker?: string): string;
  /** Ends every session and voids every outstanding login code. */
  signOutAll(): { sessions: number; codes: number };
  close(): Promise<void>;
}

/** A worker's page on the review page, its id escaped as one path segment. */
export function workerPath(id: string): string {
  return `/w/${encodeURIComponent(id)}`;
}

export function reviewInfoPath(home: string): string {
  return join(home, 'review.json');
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
  const gate = createPageGate({ home: deps.home, token, now: deps.now, loginTtlMs: deps.loginTtlMs, sessionIdleMs: deps.sessionIdleMs, sessionMaxAgeMs: deps.sessionMaxAgeMs, log: deps.log });

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
      const hostOnly = hostRefusal(facts, hosts);
      if (hostOnly) return forbidden(res, hostOnly, false);
      const a = asset(path.slice('/assets/'.length));
      if (!a) return send(res, 404, 'text/plain; charset=utf-8', 'not found');
      return send(res, 200, a.type, a.body, { 'cache-control': 'no-cache' });
    }

    // The token from `hand review`'s URL, or a one-time code posted by `hand review --open`'s
    // file, opens a session (page-gate.ts).
    if (await gate.signIn(req, res, url, path, facts)) return;
    const stateChanging = method !== 'GET' && method !== 'HEAD';
    const session = gate.admit(res, facts, stateChanging, path.startsWith('/api/') || path === '/events');
    if (!session) return;

    if (method === 'GET' && path === '/') {
      const views = deps.fleet.views();
      const [questions, notices, standings] = await Promise.all([questionsOf(deps.screens, views), deps.notices?.().catch(() => []) ?? [], deps.standingsOf?.(views) ?? new Map()]);
      return send(res, 200, 'text/html; charset=utf-8', fleetPage(views, postureOf, session.csrf, questions, notices, standings));
    }

    if (method === 'GET' && path.startsWith('/w/')) {
      const id = path.slice(3);
      const view = deps.fleet.view(id);
      if (!view) return send(res, 404, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>no such worker · kingshand</title></head><body><p>No worker named ${esc(id)}. <a href="/">Back to the fleet</a>.</p></body></html>`);
      const [details, screen, decisions, standings] = await Promise.all([workerDetails(view, deps.store, undefined, overlapsVia(deps.served), (w) => annotationsOf(deps.served, w)), deps.screens.read(view), openDecisionsOf(deps.served, view), deps.standingsOf?.([view]) ?? new Map()]);
      return send(res, 200, 'text/html; charset=utf-8', workerPage(view, details, screen.html, session.csrf, screen.question, decisions, standings.get(view.id)));
    }

    if (method === 'GET' && path === '/events') {
      const worker = url.searchParams.get('worker');
      if (worker !== null && !deps.fleet.view(worker)) return sendJson(res, 404, { ok: false, error: { code: 'unknown-worker', message: `no worker named ${worker}` } });
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
      const close = openStream(res, { fleet: deps.fleet, store: deps.store, screens: deps.screens, postureOf, worker, decisionsOf: (v) => openDecisionsOf(deps.served, v), overlapsOf: overlapsVia(deps.served), notesOf: (w) => annotationsOf(deps.served, w), ...(deps.standingsOf && { standingsOf: deps.standingsOf }) });
      streams.add(close);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        streams.delete(close);
        untrack();
        close();
      };
      // Ending the session (sign-out-all, expiry) ends its streams (close ends the response):
      // the page goes dark at once, and its reconnect is refused.
      const untrack = gate.track(session, end);
      req.on('close', end);
      return;
    }

    if (method === 'POST' && path.startsWith('/api/')) {
      const name = path.slice('/api/'.length);
      const handler: ((raw: WireObject, ctx: CallContext) => Promise<unknown>) | undefined = isPageAction(name) ? deps.served[name] : undefined;
      // A note written here is the page's (the person's, signed in): whatever the body says of where it came from.
      const from: WireObject = name === 'annotate' ? { via: 'page' } : {};
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
        const result = await handler({ ...params, ...from }, { progress: () => {}, signal: aborter.signal });
        deps.log?.({ method: name, via: 'review', ms: Date.now() - started }, 'request');
        return sendJson(res, 200, { ok: true, result });
      } catch (err) {
        // The same words as the socket's for a file system that refused a write (issue 43).
        const wire = toWireError(explainFsError(err));
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
  gate.setHosts(hosts);
  const hostPart = bind.includes(':') ? `[${bind}]` : bind;
  const base = `http://${hostPart}:${port}`;
  const info = reviewInfoPath(deps.home);
  writeFileSync(info, `${JSON.stringify({ url: `${base}/`, host: bind, port, pid: process.pid })}\n`, { mode: 0o600 });
  chmodSync(info, 0o600);
  return {
    port,
    host: bind,
    url: `${base}/?token=${token}`,
    workerUrl: (id) => `${base}${workerPath(id)}?token=${token}`,
    loginFile: (worker) => gate.loginFile(`${base}/login`, worker === undefined ? '/' : workerPath(worker)),
    signOutAll: () => gate.signOutAll(),
    close: () =>
      new Promise<void>((resolve) => {
        gate.close();
        for (const close of streams) close();
        streams.clear();
        rmSync(info, { force: true });
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
