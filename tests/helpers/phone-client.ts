/**
 * A second HTTP client acting as the person's phone (issue 42): it reaches the review page on
 * 127.0.0.1, as the person's tunnel does, with the Host header the tunnel carries (the public
 * URL's host). Node's fetch will not send a Host of our choosing, so this is node:http. And an
 * ntfy double: an HTTP server on 127.0.0.1 recording each notification it receives.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PhoneAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/** `url` as the notification gave it (its host is the public one); sent to 127.0.0.1:`port` with Host `host`. */
export function phoneRequest(url: string, o: { port: number; host?: string; method?: string; headers?: Record<string, string> }): Promise<PhoneAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: o.port, method: o.method ?? 'POST', path: `${u.pathname}${u.search}`, headers: { host: o.host ?? u.host, ...o.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        let json: any = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* an HTML answer */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface NtfyHit {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

export interface NtfyDouble {
  url: string;
  hits: NtfyHit[];
  close(): Promise<void>;
}

/** An ntfy server's stand-in: answers 200 and keeps what it was sent. */
export function ntfyDouble(): Promise<NtfyDouble> {
  const hits: NtfyHit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      hits.push({ headers: req.headers, body, path: req.url ?? '', at: performance.now() });
      res.end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}/kingshand-test`,
        hits,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

/** The answer buttons of ntfy's `Actions` header (`http, "label", url, method=POST, clear=true; …`), with their labels. */
export function ntfyActionsOf(hit: NtfyHit): { label: string; url: string }[] {
  return ntfyButtonsOf(hit).filter((b) => b.kind === 'http');
}

/** Every button of ntfy's `Actions` header: answers (http) and the page's link (view). */
export function ntfyButtonsOf(hit: NtfyHit): { kind: 'http' | 'view'; label: string; url: string }[] {
  const raw = hit.headers.actions;
  if (typeof raw !== 'string') return [];
  return raw.split('; ').map((a) => {
    const http = /^http, "([^"]*)", (\S+), method=POST, clear=true$/.exec(a);
    if (http) return { kind: 'http' as const, label: http[1]!, url: http[2]! };
    const view = /^view, "([^"]*)", (\S+), clear=true$/.exec(a);
    if (view) return { kind: 'view' as const, label: view[1]!, url: view[2]! };
    throw new Error(`not an ntfy action of ours: ${a}`);
  });
}
