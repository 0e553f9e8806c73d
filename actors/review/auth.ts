/**
 * Who may use the review page. The page types into terminals and lands branches, so it is
 * guarded like the daemon's socket: only the person who can read the state directory gets in.
 *  - a random token per state directory, in a 0600 file, is a way to sign in and nothing more:
 *    given in the URL `hand review` prints (or a one-time code in the 0600 file `hand review
 *    --open` hands the browser), it opens a session (sessions.ts) whose random id is kept in an
 *    HttpOnly, SameSite=Strict cookie (the URL is cleaned at once). The cookie is never the token;
 *  - every state-changing request carries the session's own header token as well (the page
 *    learns it from a <meta> only a same-origin reader can see) and passes a same-origin check
 *    (Origin and Sec-Fetch-Site), and the Host header must name the address we bound
 *    (a DNS-rebinding page cannot borrow the loopback address);
 *  - no CORS headers at all; binding to anything but loopback needs explicit configuration.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import type { Session } from './sessions.ts';

export const COOKIE = 'hand_review';
export const TOKEN_HEADER = 'x-hand-token';

export function tokenPath(home: string): string {
  return join(home, 'review.token');
}

/** The state directory's token: read, or made once (0600) when absent or malformed. */
export function loadOrCreateToken(home: string): string {
  const p = tokenPath(home);
  if (existsSync(p)) {
    const t = readFileSync(p, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(t)) {
      chmodSync(p, 0o600);
      return t;
    }
  }
  const t = randomBytes(32).toString('hex');
  writeFileSync(p, `${t}\n`, { mode: 0o600 });
  chmodSync(p, 0o600);
  return t;
}

export function sameToken(given: string | undefined | null, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

export function cookieValue(header: string | undefined, name = COOKIE): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The cookie a sign-in sets: the session's id, never the standing token. */
export function sessionCookie(sessionId: string): string {
  return `${COOKIE}=${sessionId}; HttpOnly; SameSite=Strict; Path=/`;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/**
 * The address to bind: 127.0.0.1 unless HAND_REVIEW_BIND names another. A non-loopback
 * address is refused unless HAND_REVIEW_ALLOW_REMOTE=1 says the person meant it (the token
 * still guards it, but the page would then travel in clear text).
 */
export function reviewBindAddress(env: Record<string, string | undefined>): string {
  const want = (env.HAND_REVIEW_BIND ?? '').trim() || '127.0.0.1';
  if (LOOPBACK.test(want)) return want;
  if (env.HAND_REVIEW_ALLOW_REMOTE === '1') return want;
  throw new UsageError(
    'review-bind-refused',
    `HAND_REVIEW_BIND=${want} is not a loopback address; the review page binds 127.0.0.1 only. Set HAND_REVIEW_ALLOW_REMOTE=1 as well if you really mean to expose it on ${want}.`,
    { bind: want },
  );
}

/** The port to ask for: HAND_REVIEW_PORT, or 0 (the system picks a free one). */
export function reviewPort(env: Record<string, string | undefined>): number {
  const raw = (env.HAND_REVIEW_PORT ?? '').trim();
  if (!raw) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError('bad-review-port', `HAND_REVIEW_PORT=${raw} is not a port number (0-65535).`, { port: raw });
  return n;
}

export interface RequestFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  cookie: string | undefined;
  tokenHeader: string | undefined;
}

/**
 * Host names the page answers to: the bound address and, for loopback, localhost; and the host of
 * the person's public URL (issue 42), which their tunnel carries to 127.0.0.1 unchanged.
 */
export function allowedHosts(bind: string, port: number, publicHost: string | null = null): Set<string> {
  const hosts = new Set([`${bind.includes(':') ? `[${bind}]` : bind}:${port}`]);
  if (LOOPBACK.test(bind)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) hosts.add(`${h}:${port}`);
  if (publicHost) hosts.add(publicHost.toLowerCase());
  return hosts;
}

/** Why a request's Host is refused (DNS rebinding), or null. */
export function hostRefusal(r: Pick<RequestFacts, 'host'>, hosts: Set<string>): string | null {
  return !r.host || !hosts.has(r.host.toLowerCase()) ? `unexpected Host ${JSON.stringify(r.host ?? '')}` : null;
}

/**
 * Why a request is refused (403), or null when it may go on. Pure, so each rule has a test.
 * `session` is the live session the request's cookie names (null: none, expired or ended).
 * `stateChanging` requests need that session's header token and a same-origin browser, on top
 * of the cookie.
 */
export function refusal(r: RequestFacts, session: Pick<Session, 'csrf'> | null, hosts: Set<string>, stateChanging: boolean, publicOrigin: string | null = null): string | null {
  const badHost = hostRefusal(r, hosts);
  if (badHost) return badHost;
  if (!session) return 'no valid session (signed out, expired, or never signed in): run hand review --open, or open the URL hand review prints';
  if (!stateChanging) return null;
  if (!sameToken(r.tokenHeader, session.csrf)) return `missing or wrong ${TOKEN_HEADER} header`;
  if (r.secFetchSite !== undefined && r.secFetchSite !== 'same-origin') return `cross-site request (Sec-Fetch-Site: ${r.secFetchSite})`;
  if (!r.origin) return 'missing Origin header';
  let originHost: string;
  try {
    const u = new URL(r.origin);
    // https only from the person's public URL (their tunnel ends TLS there); loopback is http.
    if (u.protocol !== 'http:' && u.origin !== publicOrigin) return `foreign Origin ${r.origin}`;
    originHost = u.host;
  } catch {
    return `malformed Origin ${JSON.stringify(r.origin)}`;
  }
  if (originHost.toLowerCase() !== r.host!.toLowerCase()) return `foreign Origin ${r.origin}`;
  return null;
}
