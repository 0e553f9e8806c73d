/**
 * Signing in to the review page as a browser does, for tests that speak HTTP to it: the token
 * URL (or a sign-in file's form) opens a session; the cookie is that session's id and the page's
 * <meta name="hand-token"> is its header token. And the real page server in process with a fleet
 * of no workers and a clock the test moves, for the rules that need no daemon.
 */
import { readFileSync } from 'node:fs';
import { startReviewServer, type ReviewDeps, type ReviewServer } from '../../actors/review/server.ts';
import { makeTempDir } from './temp.ts';
import type { HandRunner } from './hand-process.ts';

export interface PageSession {
  /** `hand_review=<session id>`, for a Cookie header. */
  cookie: string;
  /** The session id alone. */
  id: string;
  /** The session's header token (x-hand-token), read off the page as its script reads it. */
  csrf: string;
}

/** The cookie a sign-in response set, as `name=value`; throws when it set none. */
export function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie');
  if (!set) throw new Error(`the sign-in answered ${res.status} without a cookie`);
  return set.split(';')[0]!;
}

/** The session's header token from the page's <meta>; throws naming the status when absent. */
export async function csrfOf(origin: string, cookie: string): Promise<string> {
  const res = await fetch(`${origin}/`, { headers: { cookie } });
  const html = await res.text();
  const m = /<meta name="hand-token" content="([^"]*)">/.exec(html);
  if (!m) throw new Error(`GET / with the session answered ${res.status} without the header token: ${html.slice(0, 200)}`);
  return m[1]!;
}

async function session(origin: string, res: Response): Promise<PageSession> {
  const cookie = cookieOf(res);
  return { cookie, id: cookie.slice(cookie.indexOf('=') + 1), csrf: await csrfOf(origin, cookie) };
}

/** Signs in with the standing token, as a person pasting `hand review`'s URL. */
export async function signInWithToken(origin: string, token: string): Promise<PageSession> {
  const res = await fetch(`${origin}/?token=${token}`, { redirect: 'manual' });
  if (res.status !== 303) throw new Error(`sign-in with the token answered ${res.status}: ${await res.text()}`);
  return session(origin, res);
}

/** What a sign-in file holds: where its form posts and the code it posts. */
export function readLoginFile(path: string): { action: string; code: string } {
  const html = readFileSync(path, 'utf8');
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  const code = /<input type="hidden" name="code" value="([0-9a-f]+)">/.exec(html)?.[1];
  if (!action || !code) throw new Error(`${path} is not a sign-in file: ${html.slice(0, 300)}`);
  return { action, code };
}

/** Posts a code as the sign-in file's form does (the browser's Origin for a file:// page is "null"). */
export function postCode(action: string, code: string): Promise<Response> {
  return fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'cross-site' }, body: `code=${code}` });
}

/** Signs in through a sign-in file, as the browser `hand review --open` starts does. */
export async function signInWithFile(path: string): Promise<PageSession> {
  const { action, code } = readLoginFile(path);
  const res = await postCode(action, code);
  if (res.status !== 200) throw new Error(`sign-in with ${path} answered ${res.status}: ${await res.text()}`);
  return session(new URL(action).origin, res);
}

export interface ClockedPage {
  server: ReviewServer;
  home: string;
  origin: string;
  token: string;
  advance(ms: number): void;
  close(): Promise<void>;
}

/** The real page server in process, no workers, a clock that stands still until advanced. */
export async function pageWithClock(extra: Partial<ReviewDeps> = {}): Promise<ClockedPage> {
  const tmp = makeTempDir('review-clock');
  let now = 1_000_000;
  const server = await startReviewServer({
    home: tmp.path,
    fleet: { views: () => [], view: () => undefined, subscribe: () => () => undefined } as never,
    store: { getWorker: () => undefined, getProject: () => undefined, journal: () => [] } as never,
    served: {} as never,
    screens: { read: async () => ({ html: '', question: null }), question: async () => null, watch: () => () => undefined } as never,
    env: {},
    now: () => now,
    ...extra,
  });
  return {
    server,
    home: tmp.path,
    origin: `http://127.0.0.1:${server.port}`,
    token: new URL(server.url).searchParams.get('token')!,
    advance: (ms) => void (now += ms),
    async close() {
      await server.close();
      tmp.cleanup();
    },
  };
}

/**
 * A signed-in client of the review page for tests that read what it shows: `hand review` prints
 * the URL, its token opens a session (a 303 with the session's cookie), and `get` fetches a page
 * with that cookie, bounded.
 */
export interface ReviewSession {
  origin: string;
  /** GET `path` (e.g. `/w/w1`) signed in; the status, the text and how long it took, or a thrown bound. */
  get(path: string, timeoutMs?: number): Promise<{ status: number; text: string; ms: number }>;
}

export async function reviewSession(hand: HandRunner): Promise<ReviewSession> {
  const r = await hand(['review', '--json']);
  if (r.code !== 0) throw new Error(`hand review failed (exit ${r.code}): ${r.stderr || r.stdout}`);
  const url = new URL(r.json.url as string);
  const signIn = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  if (!cookie) throw new Error(`the review page gave no session cookie for its token (status ${signIn.status})`);
  return {
    origin: url.origin,
    async get(path, timeoutMs = 10_000) {
      const started = Date.now();
      const res = await fetch(`${url.origin}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(timeoutMs) }).catch((err: unknown) => {
        throw new Error(`GET ${path} on the review page did not answer within ${timeoutMs} ms (${String(err)})`);
      });
      const text = await res.text();
      return { status: res.status, text, ms: Date.now() - started };
    },
  };
}
