/**
 * What every fake model API of tests/harness shares: a bounded request body, the headers kept
 * without the credential, and a pause that a closed stream cuts short (close() never waits on a
 * timer). Test plumbing only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

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
