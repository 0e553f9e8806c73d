/**
 * Timers for delays a person chose. Node (like browsers) stores a timer's delay in a signed
 * 32-bit int: a delay of 2^31 ms (~24.8 days) or more is replaced by 1 ms and fires at once, so
 * `hand wait --timeout 597h` used to time out after a moment. These chain timers of at most
 * MAX_TIMER_MS until the whole delay has passed, measured on the given clock.
 */

/** The longest delay one setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest duration any flag accepts: long enough for any real wait, small enough for date arithmetic. */
export const MAX_DURATION_MS = 365 * 24 * 3_600_000;

export interface TimerClock {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Monotonic: a relative delay (`setLongTimeout`) is measured on performance.now(), so a wall
 * clock set back or forward while it runs neither stretches nor shortens it.
 */
const nodeClock: TimerClock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Calls `fire` once the clock reaches `at` (absolute ms), however far away; returns the cancel.
 * A Node timer may fire before the clock reads its target (7 of 400 timers here were a
 * millisecond short), and a deadline fired early was spent by a guard comparing against that
 * target (issue 21): so the clock is read when the timer fires, and an early timer is armed again.
 */
export function setTimerAt(at: number, fire: () => void, clock: TimerClock = nodeClock): () => void {
  let handle: unknown = null;
  let cancelled = false;
  const arm = () => {
    const left = at - clock.now();
    if (left <= MAX_TIMER_MS) {
      handle = clock.setTimeout(() => {
        if (cancelled) return;
        if (clock.now() < at) arm();
        else fire();
      }, Math.max(0, left));
      return;
    }
    // Too far for one timer: wake at the longest step and look again.
    handle = clock.setTimeout(() => {
      if (!cancelled) arm();
    }, MAX_TIMER_MS);
  };
  arm();
  return () => {
    cancelled = true;
    if (handle !== null) clock.clearTimeout(handle);
  };
}

/** Calls `fire` after `ms`, however long; returns the cancel. */
export function setLongTimeout(fire: () => void, ms: number, clock: TimerClock = nodeClock): () => void {
  return setTimerAt(clock.now() + Math.max(0, ms), fire, clock);
}
