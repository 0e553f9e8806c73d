/**
 * Rate limits on the review page (issue 24 item 5, issue 37 item 4): a token bucket per key,
 * `burst` at once, refilled at `perSecond`. The server keys a bucket by session (a signed-in
 * page's state-changing requests), and keeps one bucket for everything without a valid session
 * and one for sign-in failures. Keying by client address, as before, put every local caller on
 * 127.0.0.1 in one bucket: cross-site posts used up the person's budget and locked them out.
 */
export interface RateLimit {
  /** True when `client` may make one more request now (and takes it). */
  take(client: string): boolean;
  /** True when `client` has a request left, without taking it. */
  has(client: string): boolean;
  /** Seconds until `client` has a request again (for Retry-After). */
  retryAfter(client: string): number;
  /** Drops `client`'s bucket (its session ended): the map holds only live keys. */
  forget(client: string): void;
}

export function createRateLimit(opts: { burst: number; perSecond: number }, now: () => number = Date.now): RateLimit {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const fill = (client: string) => {
    const t = now();
    const b = buckets.get(client) ?? { tokens: opts.burst, at: t };
    b.tokens = Math.min(opts.burst, b.tokens + ((t - b.at) / 1000) * opts.perSecond);
    b.at = t;
    buckets.set(client, b);
    return b;
  };
  return {
    take(client) {
      const b = fill(client);
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
    has(client) {
      return fill(client).tokens >= 1;
    },
    retryAfter(client) {
      const b = fill(client);
      return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / opts.perSecond);
    },
    forget(client) {
      buckets.delete(client);
    },
  };
}
