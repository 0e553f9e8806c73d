/** A clock whose time moves only when a test says so; due timers fire in `advance`. */
import type { Clock } from '../../../actors/ports.ts';

export function fakeClock(): { clock: Clock; advance(ms: number): void } {
  let now = 0;
  const timers: Array<{ at: number; f: () => void; live: boolean }> = [];
  const clock: Clock = {
    now: () => now,
    setTimeout: (f, ms) => {
      const t = { at: now + ms, f, live: true };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => {
      (h as { live: boolean }).live = false;
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers) if (t.live && t.at <= now) {
      t.live = false;
      t.f();
    }
  };
  return { clock, advance };
}
