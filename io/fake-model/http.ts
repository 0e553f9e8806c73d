/**
 * The HTTP plumbing the fake model APIs share (anthropic.ts, codex.ts, gemini.ts): a bounded
 * body reader, a JSON answer, and a server on an ephemeral 127.0.0.1 port whose close() also ends
 * the streams still open (a hung reply included).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MAX_BODY = 20 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('request body too large'));
      else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export interface LoopbackServer {
  port: number;
  url: string;
  /** Keeps `res` to be ended by close() while it streams. */
  track(res: ServerResponse): void;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1; a handler that throws answers 500 with `failure(err)` (or drops a started stream). */
export async function serveOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  failure: (err: unknown) => unknown,
): Promise<LoopbackServer> {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, failure(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    track(res) {
      open.add(res);
      res.on('close', () => open.delete(res));
    },
    async close() {
      for (const res of open) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The request's headers without the `secret` ones (the API key's header, authorization): never recorded. */
export function publicHeaders(req: IncomingMessage, secret: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (secret.includes(k) || v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Resolves after ms, or at once when the response is gone (so close() never waits on a timer). */
export function pause(res: ServerResponse, ms: number): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}

/** A scripted fake model API as tests drive it (the Anthropic and Gemini fakes). */
export interface ScriptedFake<Item, Rec> {
  /** `http://127.0.0.1:<port>`: the agent's base URL. */
  url: string;
  port: number;
  /** Every request in arrival order (live array: cleared by reset()). */
  received: Rec[];
  /** Replies for the next agent-loop requests, in order, before any trigger word. */
  queue(items: Item[]): void;
  /** How many queued replies are still unused. */
  pending(): number;
  /** Called after each request is recorded and its reply chosen; returns the unsubscribe function. */
  onRequest(listener: (r: Rec) => void): () => void;
  /** Forget the queue and the recorded requests. */
  reset(): void;
  /** Ends open streams (a hang included) and stops the server. */
  close(): Promise<void>;
}

/** What a scripted fake keeps: the requests in arrival order, the replies queued, who listens. */
export class FakeLog<Item, Rec> {
  readonly received: Rec[] = [];
  readonly queued: Item[] = [];
  readonly listeners = new Set<(r: Rec) => void>();
  private seq = 0;

  /** The next request's number (1, 2, …). */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Keeps `record`; returns the call that tells the listeners, once its reply is chosen. */
  keep(record: Rec): () => void {
    this.received.push(record);
    return () => this.listeners.forEach((l) => l(record));
  }
}

/** What a request asked for: its method, its path without the query string, and the query. */
export interface RequestTarget {
  method: string;
  path: string;
  query: string;
}

/** A request as a fake with an API key records it: the key's value and the authorization are never kept. */
export interface KeyedRequest extends RequestTarget {
  /** Headers with `authorization` and the API key's header removed. */
  headers: Record<string, string>;
  /** Which credential came with the request (its value is never kept). */
  auth: 'bearer' | 'api-key' | 'none';
}

/** The parts of `req` a keyed fake records (`keyHeader`: the API key's header, lower case). */
export function keyedRequest(req: IncomingMessage, keyHeader: string): KeyedRequest {
  const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
  const auth = req.headers.authorization ? 'bearer' : req.headers[keyHeader] ? 'api-key' : 'none';
  return { method: req.method ?? 'GET', path, query, headers: publicHeaders(req, ['authorization', keyHeader]), auth };
}

/** The test-facing side of a scripted fake over its loopback server and its log. */
export function scriptedFake<Item, Rec>(server: LoopbackServer, { received, queued, listeners }: FakeLog<Item, Rec>): ScriptedFake<Item, Rec> {
  return {
    url: server.url,
    port: server.port,
    received,
    queue: (items) => void queued.push(...items),
    pending: () => queued.length,
    onRequest(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    reset() {
      queued.length = 0;
      received.length = 0;
    },
    close: () => server.close(),
  };
}
