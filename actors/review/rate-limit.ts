/**
 * Per-client rate limits on the review page (issue 24 item 5): state-changing requests and
 * sign-in attempts. A token bucket per client address: `burst` at once, refilled at `perSecond`.
 * Every local client shares 127.0.0.1, so on loopback this bounds all callers together — which
 * is what slows another local account guessing a login code or hammering the actions.
 */
export interface RateLimit {
  /** True when `client` may make one more request now (and takes it). */
  take(client: string): boolean;
  /** Seconds until `client` has a request again (for Retry-After). */
  retryAfter(client: string): number;
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
    retryAfter(client) {
      const b = fill(client);
      return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / opts.perSecond);
    },
  };
}
