/**
 * One-time login codes for `hand review --open` (issue 24 item 5). The browser was started with
 * the full `?token=` URL in its argv, and a second local account read it from
 * /proc/<pid>/cmdline. The opener now gets `?login=<code>`: 128 random bits, good once, for
 * CODE_TTL_MS, exchanged for the session cookie; the standing token never reaches an argv.
 * Codes live in the daemon's memory only: a restart voids them (run `hand review --open` again).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const CODE_TTL_MS = 60_000;

export interface LoginCodes {
  issue(): string;
  /** True once for a code issued within its lifetime; false for any other string, ever after. */
  redeem(code: string): boolean;
}

export function createLoginCodes(now: () => number = Date.now, ttlMs = CODE_TTL_MS): LoginCodes {
  const live = new Map<string, number>();
  const sweep = () => {
    for (const [c, until] of live) if (until <= now()) live.delete(c);
  };
  return {
    issue() {
      sweep();
      const code = randomBytes(16).toString('hex');
      live.set(code, now() + ttlMs);
      return code;
    },
    redeem(code) {
      sweep();
      if (!/^[0-9a-f]{32}$/.test(code)) return false;
      // Compared in constant time against each live code (a handful at most).
      for (const c of live.keys()) {
        if (timingSafeEqual(Buffer.from(c), Buffer.from(code))) {
          live.delete(c);
          return true;
        }
      }
      return false;
    },
  };
}
