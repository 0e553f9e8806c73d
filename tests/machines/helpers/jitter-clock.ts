/**
 * A clock whose timers fire up to a few ms early or late (as Node's do: 7 of 400 fired before
 * Date.now() reached their target here). `jitter()` gives each timer its error; `advanceTo`
 * fires due timers in order, moving the clock to each one's (erroneous) firing time.
 */
import type { Clock } from '../../../actors/ports.ts';

interface Timer { due: number; f: () => void; live: boolean }

export class JitterClock implements Clock {
  private timers: Timer[] = [];
  constructor(private t: number, private jitter: () => number, private flush: () => Promise<void>) {}
  now(): number { return this.t; }
  setTimeout(f: () => void, ms: number): unknown {
    // Early or late by the jitter, but a positive delay never fires in the same millisecond.
    const t: Timer = { due: this.t + Math.max(ms > 0 ? 1 : 0, ms + this.jitter()), f, live: true };
    this.timers.push(t);
    return t;
  }
  clearTimeout(h: unknown): void { (h as Timer).live = false; }
  /** Fires every timer due by `target` (bounded: a re-arm loop fails loudly), then sets the clock there. */
  async advanceTo(target: number): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      const next = this.timers.filter((x) => x.live && x.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!next) {
        this.t = Math.max(this.t, target);
        await this.flush();
        return;
      }
      next.live = false;
      this.t = Math.max(this.t, next.due);
      next.f();
      await this.flush();
    }
    throw new Error(`timers kept firing before ${target}: a deadline is re-armed in a loop`);
  }
}
