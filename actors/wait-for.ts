/**
 * The one "wait until a view matches, within a bound" primitive. Views are pushed by the fleet
 * host on every change (an event, never a poll); every waiter in the daemon — `hand wait`,
 * `hand land` letting a report check finish, `hand send`/`keys` answering with the next screen,
 * `hand watch` streaming, the fleet host's own commands — is this function with its own
 * `accept`, bound and abort signal.
 */
import { setLongTimeout } from '../io/time/long-timer.ts';

export interface ViewSource<V extends { id: string }> {
  view(id: string): V | null;
  subscribe(listener: (view: V) => void): () => void;
}

export interface WaitForOptions<V> {
  /** Give up after this long (no bound when absent). */
  timeoutMs?: number;
  /** Give up when the caller goes away. */
  signal?: AbortSignal;
  /** Every view of the worker (of every worker when id is null) seen while waiting, first the current one. */
  onView?(view: V): void;
  /** Only views published after now count (the current one is never accepted). */
  fresh?: boolean;
  /** What to answer with at the bound when nothing newer was seen (default: the current view). */
  last?: V;
}

export interface WaitForOutcome<V> {
  /** The accepted view, or the latest one seen when the wait ended otherwise (null: none was). */
  view: V | null;
  by: 'accepted' | 'timeout' | 'aborted';
}

/** Resolves with the first view of `id` (every worker when null) that `accept` takes, or at the bound. */
export function waitFor<V extends { id: string }>(
  source: ViewSource<V>,
  id: string | null,
  accept: (view: V) => boolean,
  opts: WaitForOptions<V> = {},
): Promise<WaitForOutcome<V>> {
  return new Promise((resolve) => {
    let ended = false;
    let last: V | null = opts.last ?? (id === null ? null : source.view(id));
    // A person's timeout may exceed what one Node timer holds (io/time/long-timer.ts).
    let cancelTimer: (() => void) | undefined;
    const end = (view: V | null, by: WaitForOutcome<V>['by']) => {
      if (ended) return;
      ended = true;
      cancelTimer?.();
      unsubscribe();
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ view, by });
    };
    const consider = (view: V) => {
      if (ended || (id !== null && view.id !== id)) return;
      last = view;
      opts.onView?.(view);
      if (accept(view)) end(view, 'accepted');
    };
    const onAbort = () => end(last, 'aborted');
    // Subscribed before the first look, so no change can fall between the two.
    const unsubscribe = source.subscribe(consider);
    if (opts.timeoutMs !== undefined) cancelTimer = setLongTimeout(() => end(last, 'timeout'), opts.timeoutMs);
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    if (!opts.fresh && id !== null) {
      const now = source.view(id);
      if (now) consider(now);
    }
  });
}
