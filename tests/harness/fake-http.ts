/**
 * The HTTP plumbing the fake model APIs share (fake-anthropic.ts, fake-codex-api.ts): a bounded
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
