/**
 * The review page's sessions (issue 37 item 4). The cookie used to be the standing token, so a
 * cookie someone took (a second local account racing `hand review --open`, a copied browser
 * profile) was access that never ended. A sign-in now opens a session: a random id the server
 * keeps, with its own header token for state-changing requests, ending after IDLE_MS without a
 * request or MAX_AGE_MS after sign-in, whichever comes first; `hand review --sign-out-all` and a
 * daemon restart end every one (they live in the daemon's memory only). The token is only ever
 * a way to sign in.
 *
 * Bounded: at most MAX_SESSIONS at once; a sign-in beyond it ends the one used least recently
 * (only someone who can sign in can open one, so a flood of sign-ins is the person's own, or
 * held back by the sign-in rate limit before it gets here).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A session unused this long ends (a working day with the page in a tab). */
export const IDLE_MS = 12 * 60 * 60_000;
/** A session ends this long after its sign-in, however busy (sign in again each day). */
export const MAX_AGE_MS = 24 * 60 * 60_000;
/** How many sessions may be open at once (browsers and tabs of one person: a handful). */
export const MAX_SESSIONS = 32;

export interface Session {
  /** The cookie's value: 256 random bits, hex. */
  id: string;
  /** What the page sends back in the x-hand-token header on state-changing requests. */
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
  /** A shorter life than MAX_AGE_MS for this one (a notification's view link, issue 42). */
  maxAgeMs?: number;
}

export type SessionEnd = 'idle' | 'age' | 'evicted' | 'signed-out';

export interface Sessions {
  /** A new session (the oldest-used one ends when MAX_SESSIONS are open); `maxAgeMs` shortens its life. */
  open(o?: { maxAgeMs?: number }): Session;
  /** The live session with this id, its last use moved to now; null for anything else. */
  find(id: string | null | undefined): Session | null;
  /** Ends every session; returns how many there were. */
  endAll(): number;
  /** Ends sessions past their bounds (find does it too, for the one it looks at). */
  sweep(): void;
  size(): number;
}

export interface SessionOptions {
  now?: () => number;
  idleMs?: number;
  maxAgeMs?: number;
  max?: number;
  /** Told of each session that ends, and why (the server closes its event streams and its rate bucket). */
  onEnd?: (id: string, why: SessionEnd) => void;
}

const ID = /^[0-9a-f]{64}$/;

export function createSessions(o: SessionOptions = {}): Sessions {
  const now = o.now ?? Date.now;
  const idleMs = o.idleMs ?? IDLE_MS;
  const maxAgeMs = o.maxAgeMs ?? MAX_AGE_MS;
  const max = o.max ?? MAX_SESSIONS;
  // Insertion order is kept as least recently used first: find moves a session to the end.
  const live = new Map<string, Session>();
  const end = (id: string, why: SessionEnd) => {
    if (live.delete(id)) o.onEnd?.(id, why);
  };
  const expiry = (s: Session, t: number): SessionEnd | null => (t - s.createdAt >= Math.min(maxAgeMs, s.maxAgeMs ?? Infinity) ? 'age' : t - s.lastSeenAt >= idleMs ? 'idle' : null);
  return {
    open(opts) {
      while (live.size >= max) end(live.keys().next().value!, 'evicted');
      const t = now();
      const s: Session = { id: randomBytes(32).toString('hex'), csrf: randomBytes(32).toString('hex'), createdAt: t, lastSeenAt: t, ...(opts?.maxAgeMs !== undefined && { maxAgeMs: opts.maxAgeMs }) };
      live.set(s.id, s);
      return s;
    },
    find(id) {
      if (typeof id !== 'string' || !ID.test(id)) return null;
      // The map's lookup is by hash, not a byte-by-byte compare of the secret; the compare after
      // it is constant-time all the same.
      const s = live.get(id);
      if (!s || !timingSafeEqual(Buffer.from(s.id), Buffer.from(id))) return null;
      const t = now();
      const why = expiry(s, t);
      if (why) {
        end(id, why);
        return null;
      }
      s.lastSeenAt = t;
      live.delete(id);
      live.set(id, s);
      return s;
    },
    endAll() {
      const n = live.size;
      for (const id of [...live.keys()]) end(id, 'signed-out');
      return n;
    },
    sweep() {
      const t = now();
      for (const s of [...live.values()]) {
        const why = expiry(s, t);
        if (why) end(s.id, why);
      }
    },
    size: () => live.size,
  };
}
