/**
 * A signed-in client of the review page, for tests that read what the page shows: `hand review`
 * prints the URL, its token is exchanged for the session cookie (a 303), and `get` fetches a page
 * with that cookie, bounded. One place to change when the sign-in changes.
 */
import type { HandRunner } from './hand-process.ts';

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
