/**
 * A notification target on 127.0.0.1 for the benches (an ntfy double, a webhook): each request's
 * body is read to its end and handed to `arrived` with its headers at that moment; the server
 * is closed with the bench's cleanups.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from './cleanup.ts';

export async function startLoopbackSink(what: string, arrived: (body: string, headers: IncomingHttpHeaders) => void, reply = '{}'): Promise<number> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      arrived(body, req.headers);
      res.end(reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  onCleanup(what, () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return (server.address() as AddressInfo).port;
}
