/**
 * What every fake model API of tests/harness shares: a bounded request body, the headers kept
 * without the credential, and a pause that a closed stream cuts short (close() never waits on a
 * timer). Test plumbing only.
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

/** The request's headers without `secret` ones (the API key's header, authorization). */
export function publicHeaders(req: IncomingMessage, secret: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (secret.includes(k) || v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Resolves after ms, or at once when the response is gone. */
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

/** The state a scripted fake keeps: what it received, its reply queue, its listeners, its open streams. */
export interface FakeState<Item, Rec> {
  received: Rec[];
  queued: Item[];
  listeners: Set<(r: Rec) => void>;
  open: Set<ServerResponse>;
}

export interface FakeServer<Item, Rec> {
  /** `http://127.0.0.1:<port>`: the base URL the agent is pointed at. */
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

/** Serves `handle` on 127.0.0.1 (a free port); a handler that throws is answered by `failed` (or its socket dropped mid-stream). */
export async function serveFake<Item, Rec>(
  state: FakeState<Item, Rec>,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  failed: (res: ServerResponse, err: unknown) => void,
): Promise<FakeServer<Item, Rec>> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) failed(res, err);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received: state.received,
    queue: (items) => void state.queued.push(...items),
    pending: () => state.queued.length,
    onRequest(listener) {
      state.listeners.add(listener);
      return () => void state.listeners.delete(listener);
    },
    reset() {
      state.queued.length = 0;
      state.received.length = 0;
    },
    async close() {
      for (const res of state.open) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
