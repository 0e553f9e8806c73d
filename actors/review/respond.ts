/**
 * How the review page answers: its security headers on every response, JSON and HTML refusals,
 * 429 with Retry-After, and bounded request bodies. Shared by the router (server.ts) and the
 * sign-in gate (page-gate.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { esc } from './html.ts';

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
};

export function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** 429: `whose` budget is spent ("this session's", "unsigned-in requests'", "sign-in attempts'"). */
export function tooMany(res: ServerResponse, retryAfter: number, asJson: boolean, whose: string): void {
  const message = `too many requests: ${whose} budget is spent; try again in ${retryAfter} s`;
  if (asJson) return send(res, 429, 'application/json; charset=utf-8', JSON.stringify({ ok: false, error: { code: 'rate-limited', message } }), { 'retry-after': String(retryAfter) });
  send(res, 429, 'text/plain; charset=utf-8', message, { 'retry-after': String(retryAfter) });
}

export function forbidden(res: ServerResponse, why: string, asJson: boolean): void {
  if (asJson) return sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: `refused: ${why}` } });
  send(res, 403, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>refused · kingshand</title></head><body><h1>Refused</h1><p>${esc(why)}.</p><p>Run <code>hand review --open</code>, or <code>hand review</code> and open the URL it prints.</p></body></html>`);
}

/** The largest action body the page reads: a decision's answer or a reject reason, far below. */
export const MAX_BODY_BYTES = 16_384;

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
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

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
