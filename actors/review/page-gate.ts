/**
 * The review page's door (issue 37 item 4): sign-in, sessions and the rate limits, in one place
 * so the router (server.ts) asks one question per request — may it go on, as which session?
 *
 * Sign-in, two ways, each opening a new session (sessions.ts) whose id is the cookie:
 *  - GET any page with `?token=<standing token>`: the URL `hand review` prints, for a person who
 *    pastes it; answered 303 to the same page without the token;
 *  - POST /login with `code=<one-time code>`: sent by the 0600 file `hand review --open` hands
 *    the browser (login-file.ts). Answered 200 with a page that moves on to `/` itself: the post
 *    comes from a file:// page, so the browser counts the navigation as cross-site, and a 303
 *    would arrive at `/` as part of that cross-site navigation, without the SameSite=Strict
 *    cookie. The page's own refresh is a same-site navigation, which carries it.
 *
 * Budgets, so nobody without a session can spend the person's (on loopback every caller shares
 * 127.0.0.1, and the old per-address bucket let cross-site posts lock the person out with 429):
 *  - each session: its state-changing requests, SESSION_BUDGET;
 *  - everything without a valid session (no cookie, a wrong or ended one, a foreign Host), one
 *    shared UNSIGNED_BUDGET: only ever a 429 instead of a 403 for those callers;
 *  - failed sign-ins (a wrong token or code), SIGN_IN_BUDGET: when it is spent every sign-in is
 *    refused unread until it refills, so guessing stays slow. A signed-in page never signs in, so
 *    no flood of guesses reaches it; it can only delay a *new* sign-in for its Retry-After.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cookieValue, hostRefusal, refusal, sameToken, sessionCookie, type RequestFacts } from './auth.ts';
import { createSessions, type Session, type SessionEnd } from './sessions.ts';
import { createLoginCodes, CODE_TTL_MS } from './login-codes.ts';
import { prepareLoginDir, writeLoginFile } from './login-file.ts';
import { createRateLimit } from './rate-limit.ts';
import { rmSync } from 'node:fs';
import { BodyTooLarge, forbidden, header, readBody, send, tooMany } from './respond.ts';
import { esc } from './html.ts';

/** A person clicking through gates: 30 at once, then 5 a second. */
export const SESSION_BUDGET = { burst: 30, perSecond: 5 };
/** Everyone without a session together: they only ever get refusals, so this bounds the work. */
export const UNSIGNED_BUDGET = { burst: 30, perSecond: 5 };
/** Wrong tokens and codes: 10, then one each 5 s. */
export const SIGN_IN_BUDGET = { burst: 10, perSecond: 0.2 };

const UNSIGNED = 'unsigned';
const SIGN_IN = 'sign-in';
/** How long a session opened by a notification's view link lives, however busy (issue 42). */
export const PHONE_SESSION_MS = 60 * 60_000;
/** How often ended sessions are looked for (their open event streams are closed then). */
const SWEEP_MS = 60_000;

export interface GateOptions {
  home: string;
  /** The standing token (auth.ts): signs in, never a cookie. */
  token: string;
  now?: () => number;
  loginTtlMs?: number;
  sessionIdleMs?: number;
  sessionMaxAgeMs?: number;
  log?: (obj: Record<string, unknown>, msg: string) => void;
}

export interface PageGate {
  /** Answers a sign-in request (GET ?token=, POST /login) and returns true; false for any other request. */
  signIn(req: IncomingMessage, res: ServerResponse, url: URL, path: string, facts: RequestFacts): Promise<boolean>;
  /** The session the request goes on as, or null when it was answered (403 or 429). */
  admit(res: ServerResponse, facts: RequestFacts, stateChanging: boolean, asJson: boolean): Session | null;
  /** Ties an open event stream to its session: ending the session closes it. */
  track(session: Session, close: () => void): () => void;
  /**
   * A new one-time code in a new 0600 file posting to `loginAction`; the file's path. The sign-in
   * moves on to `landing` (the page's own path, '/' unless a worker's page was asked for).
   */
  loginFile(loginAction: string, landing?: string): string;
  /** Ends every session and voids every outstanding code. */
  signOutAll(): { sessions: number; codes: number };
  /** The hosts the page answers to (known once it listens), and the public URL's origin (issue 42). */
  setHosts(hosts: Set<string>, publicOrigin?: string | null): void;
  /** Opens a session for a one-time link checked elsewhere (a notification's view link) and moves on to `landing`. */
  signInByLink(res: ServerResponse, landing: string): void;
  close(): void;
}

export function createPageGate(o: GateOptions): PageGate {
  const now = o.now ?? Date.now;
  let hosts = new Set<string>();
  let publicOrigin: string | null = null;
  const streams = new Map<string, Set<() => void>>();
  const perSession = createRateLimit(SESSION_BUDGET, now);
  const unsigned = createRateLimit(UNSIGNED_BUDGET, now);
  const signIns = createRateLimit(SIGN_IN_BUDGET, now);
  const onEnd = (id: string, why: SessionEnd) => {
    perSession.forget(id);
    for (const close of streams.get(id) ?? []) close();
    streams.delete(id);
    o.log?.({ why }, 'review session ended');
  };
  const sessions = createSessions({ now, idleMs: o.sessionIdleMs, maxAgeMs: o.sessionMaxAgeMs, onEnd });
  const codes = createLoginCodes(now, o.loginTtlMs ?? CODE_TTL_MS);
  prepareLoginDir(o.home, true);
  const fileTimers = new Set<NodeJS.Timeout>();
  const sweeper = setInterval(() => sessions.sweep(), SWEEP_MS);
  sweeper.unref();

  /** After a token: 303 to `location`. After a code: 200 with a page that moves on to `landing` itself. */
  function signedIn(res: ServerResponse, how: 'token' | 'code' | 'link', location: string | null, landing = '/', maxAgeMs?: number): void {
    const s = sessions.open(maxAgeMs === undefined ? undefined : { maxAgeMs });
    o.log?.({ how, sessions: sessions.size() }, 'review sign-in');
    const cookie = { 'set-cookie': sessionCookie(s.id) };
    if (location !== null) return send(res, 303, 'text/plain; charset=utf-8', 'signed in', { location, ...cookie });
    const to = esc(landing);
    send(res, 200, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${to}"><title>signed in · kingshand</title></head><body><p>Signed in. <a href="${to}">Open the review page</a>.</p></body></html>`, cookie);
  }

  function failed(res: ServerResponse, why: string): void {
    signIns.take(SIGN_IN);
    forbidden(res, why, false);
  }

  const gate: PageGate = {
    async signIn(req, res, url, path, facts) {
      const given = facts.method === 'GET' ? url.searchParams.get('token') : null;
      const posted = facts.method === 'POST' && path === '/login';
      if (given === null && !posted) return false;
      const badHost = hostRefusal(facts, hosts);
      if (badHost) {
        if (!unsigned.take(UNSIGNED)) tooMany(res, unsigned.retryAfter(UNSIGNED), false, "requests without a session: their shared");
        else forbidden(res, badHost, false);
        return true;
      }
      // Refused unread while the budget is spent: no answer says whether a guess was right.
      if (!signIns.has(SIGN_IN)) {
        tooMany(res, signIns.retryAfter(SIGN_IN), false, 'sign-in attempts\'');
        return true;
      }
      if (given !== null) {
        if (!sameToken(given, o.token)) failed(res, 'wrong token');
        else {
          url.searchParams.delete('token');
          // The address as it came (still escaped: a decoded CR/LF never reaches a header), and
          // one leading slash only: `//elsewhere.example` would send the browser off the page.
          signedIn(res, 'token', `${url.pathname.replace(/^\/+/, '/')}${url.search}`);
        }
        return true;
      }
      let code = '';
      try {
        if (!(header(req, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded')) throw new Error('not a form');
        code = new URLSearchParams(await readBody(req, 1024)).get('code') ?? '';
      } catch (err) {
        if (err instanceof BodyTooLarge) res.on('finish', () => req.socket.destroy());
        failed(res, 'a sign-in posts one form field, code');
        return true;
      }
      const landing = codes.redeem(code);
      if (landing === null) failed(res, 'this sign-in file was used already, has expired or is wrong: run hand review --open again');
      else signedIn(res, 'code', null, landing);
      return true;
    },

    admit(res, facts, stateChanging, asJson) {
      const badHost = hostRefusal(facts, hosts);
      const session = badHost ? null : sessions.find(cookieValue(facts.cookie));
      if (!session) {
        if (!unsigned.take(UNSIGNED)) tooMany(res, unsigned.retryAfter(UNSIGNED), asJson, "requests without a session: their shared");
        else forbidden(res, badHost ?? refusal(facts, null, hosts, stateChanging, publicOrigin)!, asJson);
        return null;
      }
      if (stateChanging && !perSession.take(session.id)) {
        tooMany(res, perSession.retryAfter(session.id), asJson, "this session's");
        return null;
      }
      const why = refusal(facts, session, hosts, stateChanging, publicOrigin);
      if (why) {
        forbidden(res, why, asJson);
        return null;
      }
      return session;
    },

    track(session, close) {
      const set = streams.get(session.id) ?? new Set();
      set.add(close);
      streams.set(session.id, set);
      return () => void set.delete(close);
    },

    loginFile(loginAction, landing = '/') {
      // Checked again each time: a directory removed or swapped since the start is made anew or refused.
      const dir = prepareLoginDir(o.home);
      let path = '';
      let timer: NodeJS.Timeout | undefined;
      const code = codes.issue(() => {
        // A code whose file could not be written has none to remove; it dies unknown to anyone.
        if (path) rmSync(path, { force: true });
        if (timer) {
          clearTimeout(timer);
          fileTimers.delete(timer);
        }
      }, landing);
      path = writeLoginFile(dir, loginAction, code);
      // The file goes when its code dies, not at the next sign-in: a dead code left lying about
      // says nothing, but the directory should hold only live ones.
      timer = setTimeout(() => codes.sweep(), (o.loginTtlMs ?? CODE_TTL_MS) + 1000);
      timer.unref();
      fileTimers.add(timer);
      return path;
    },

    signOutAll() {
      const n = { sessions: sessions.endAll(), codes: codes.revokeAll() };
      o.log?.(n, 'review: signed out everywhere');
      return n;
    },

    setHosts(h, origin = null) {
      hosts = h;
      publicOrigin = origin;
    },

    signInByLink(res, landing) {
      // A notification may be read by more eyes than the person's (a lock screen, a shared ntfy
      // topic): its link opens a session of an hour, not a day.
      signedIn(res, 'link', null, landing, PHONE_SESSION_MS);
    },

    close() {
      clearInterval(sweeper);
      for (const t of fileTimers) clearTimeout(t);
      fileTimers.clear();
      codes.revokeAll();
    },
  };
  return gate;
}
