/**
 * One-time login codes for `hand review --open` (issue 24 item 5, issue 37 item 4). A code is 128
 * random bits, good once, for CODE_TTL_MS, exchanged for a session (sessions.ts). It never
 * travels in an argv or a URL: the daemon writes it into a 0600 file only the person can read
 * (login-file.ts) and the browser is handed that file's path; a second local account polling
 * /proc saw the `?login=` code of the old opener and won the race for it.
 *
 * Codes live in the daemon's memory only: a restart voids them (run `hand review --open` again).
 * At most MAX_CODES are outstanding; issuing one more drops the oldest (only the person, through
 * the daemon's socket, can issue them, so the bound is against a runaway script, not a stranger).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const CODE_TTL_MS = 60_000;
export const MAX_CODES = 8;

export interface LoginCodes {
  /**
   * A fresh code; `onDrop` runs once when it is redeemed, expires, is pushed out or revoked.
   * `landing` is the page's own path the sign-in moves on to (a worker's page, issue 38 item 3):
   * kept here beside the code, never taken from the request that redeems it.
   */
  issue(onDrop?: () => void, landing?: string): string;
  /** The code's landing, once, for a code issued within its lifetime; null for any other string, ever after. */
  redeem(code: string): string | null;
  /** Drops every outstanding code (sign-out-all, shutdown); returns how many there were. */
  revokeAll(): number;
  /** Drops the codes past their lifetime. */
  sweep(): void;
  size(): number;
}

interface Live {
  until: number;
  landing: string;
  onDrop?: () => void;
}

export function createLoginCodes(now: () => number = Date.now, ttlMs = CODE_TTL_MS, max = MAX_CODES): LoginCodes {
  const live = new Map<string, Live>();
  const drop = (code: string) => {
    const l = live.get(code);
    if (!l) return;
    live.delete(code);
    l.onDrop?.();
  };
  const sweep = () => {
    for (const [c, l] of [...live]) if (l.until <= now()) drop(c);
  };
  return {
    issue(onDrop, landing = '/') {
      sweep();
      while (live.size >= max) drop(live.keys().next().value!);
      const code = randomBytes(16).toString('hex');
      live.set(code, { until: now() + ttlMs, landing, onDrop });
      return code;
    },
    redeem(code) {
      sweep();
      if (typeof code !== 'string' || !/^[0-9a-f]{32}$/.test(code)) return null;
      // Compared in constant time against each live code (MAX_CODES at most).
      for (const [c, l] of live) {
        if (timingSafeEqual(Buffer.from(c), Buffer.from(code))) {
          drop(c);
          return l.landing;
        }
      }
      return null;
    },
    revokeAll() {
      const n = live.size;
      for (const c of [...live.keys()]) drop(c);
      return n;
    },
    sweep,
    size: () => live.size,
  };
}
