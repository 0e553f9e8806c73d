/**
 * A Node timer can fire before the clock reads its target (7 of 400 did on this machine), and a
 * deadline fired early was spent by a guard comparing against the target (issue 21, item 2).
 * setTimerAt therefore looks at the clock when its timer fires and arms again when early.
 */
import { describe, expect, it } from 'vitest';
import { setTimerAt, type TimerClock } from '../../io/time/long-timer.ts';

/** A clock whose timers fire `earlyMs` before their delay has passed, each time. */
function earlyClock(earlyMs: number) {
  let now = 1_000;
  const timers: Array<{ due: number; f: () => void; live: boolean }> = [];
  const clock: TimerClock = {
    now: () => now,
    setTimeout: (f, ms) => {
      // Early by up to earlyMs, but never before 1 ms of a positive delay has passed (as Node).
      const t = { due: now + Math.max(ms > 0 ? 1 : 0, ms - earlyMs), f, live: true };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => { (h as { live: boolean }).live = false; },
  };
  /** Runs timers in due order until none is left (bounded, so a re-arm loop fails the test). */
  const run = (): number => {
    let fired = 0;
    for (let i = 0; i < 1_000; i++) {
      const next = timers.filter((t) => t.live).sort((a, b) => a.due - b.due)[0];
      if (!next) return fired;
      next.live = false;
      now = Math.max(now, next.due);
      next.f();
      fired++;
    }
    throw new Error('timers kept re-arming after 1000 firings');
  };
  return { clock, run, now: () => now };
}

describe('a timer fires only when its clock has reached the target', () => {
  it('a timer that fires early is armed again, and fire() runs at or after the target', () => {
    const c = earlyClock(3);
    const target = c.now() + 500;
    let firedAt: number | null = null;
    setTimerAt(target, () => { firedAt = c.now(); }, c.clock);
    c.run();
    expect(firedAt, 'fire() never ran').not.toBeNull();
    expect(firedAt!).toBeGreaterThanOrEqual(target);
  });

  it('a cancelled timer does not fire, even when its early firing re-armed it', () => {
    const c = earlyClock(3);
    let fired = false;
    const cancel = setTimerAt(c.now() + 500, () => { fired = true; }, c.clock);
    cancel();
    c.run();
    expect(fired).toBe(false);
  });
});
