import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAUSE_MS, POUR_MS, PaneEventBus } from '../../io/terminal/pane-events.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';

const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });

describe('pane events', () => {
  beforeEach(() => fakeClock());
  afterEach(() => vi.useRealTimers());

  it('a burst of output is one changed event, carrying nothing', () => {
    const bus = new PaneEventBus(20);
    const seen: PaneEvent[] = [];
    bus.subscribe('p', (e) => seen.push(e));
    for (let i = 0; i < 50; i++) bus.touch('p');
    vi.advanceTimersByTime(20);
    expect(seen).toEqual([{ type: 'changed' }]);
  });

  it('continuous output is still announced, every POUR_MS (a throttle, not a debounce)', () => {
    const bus = new PaneEventBus(20);
    const at: number[] = [];
    bus.subscribe('p', () => at.push(performance.now()));
    const t0 = performance.now();
    for (let t = 0; t < 1000; t += 5) {
      bus.touch('p');
      vi.advanceTimersByTime(5);
    }
    const gaps = at.map((t, i) => t - (i === 0 ? t0 : at[i - 1]!));
    expect(gaps[0], 'the first burst of a quiet pane waits one window').toBe(20);
    expect(gaps.slice(1).every((g) => g === POUR_MS), `gaps between announcements of a pouring pane: ${gaps.join(', ')}`).toBe(true);
  });

  it('a pouring pane that pauses (a question drawn, then waiting) is announced PAUSE_MS after its last output', () => {
    const bus = new PaneEventBus(20);
    const at: number[] = [];
    bus.subscribe('p', () => at.push(performance.now()));
    for (let t = 0; t < 200; t += 5) {
      bus.touch('p');
      vi.advanceTimersByTime(5);
    }
    const lastBefore = at.at(-1)!;
    vi.advanceTimersByTime(10); // a short pause, the gap between two frames of a renderer
    bus.touch('p'); // the question
    const drawn = performance.now();
    vi.advanceTimersByTime(POUR_MS);
    expect(at.length).toBeGreaterThan(1);
    const next = at.find((t) => t > lastBefore)!;
    expect(next - drawn).toBe(Math.min(PAUSE_MS, POUR_MS - (drawn - lastBefore)));
    expect(next - drawn).toBeLessThanOrEqual(PAUSE_MS);
  });

  it('a frame drawn at once just after an announcement (a question after the working frame) waits only its window', () => {
    const bus = new PaneEventBus(20);
    const at: number[] = [];
    bus.subscribe('p', () => at.push(performance.now()));
    bus.touch('p'); // the working frame
    vi.advanceTimersByTime(20);
    vi.advanceTimersByTime(40);
    const drawn = performance.now();
    for (let k = 0; k < 4; k++) {
      bus.touch('p'); // the question, in pieces over 3 ms
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(10); // a spinner tick comes while it waits: still the same burst
    bus.touch('p');
    vi.advanceTimersByTime(40);
    expect(at).toHaveLength(2);
    expect(at[1]! - drawn).toBe(20);
  });

  it('a frame of a pane announced a while ago waits only its window (a spinner tick, a question on an idle pane)', () => {
    const bus = new PaneEventBus(20);
    const at: number[] = [];
    bus.subscribe('p', () => at.push(performance.now()));
    bus.touch('p');
    vi.advanceTimersByTime(20);
    vi.advanceTimersByTime(POUR_MS);
    const drawn = performance.now();
    bus.touch('p');
    vi.advanceTimersByTime(40);
    expect(at).toHaveLength(2);
    expect(at[1]! - drawn).toBe(20);
  });

  it('output the host did not hear (a hushed pane) is announced at once, unknown, with a waiting burst folded in', () => {
    const bus = new PaneEventBus(20);
    const seen: PaneEvent[] = [];
    bus.subscribe('p', (e) => seen.push(e));
    bus.touch('p', 7, 100);
    bus.unseen('p');
    expect(seen).toEqual([{ type: 'changed' }]);
    vi.advanceTimersByTime(100);
    expect(seen, 'the folded burst is not announced again').toHaveLength(1);
  });

  it('a pane is shown live while a listener that cannot tell repaints (a page) listens', () => {
    const bus = new PaneEventBus(20);
    bus.subscribe('p', () => {}, { repaints: { known: () => false, skipped: () => {} } });
    expect(bus.shownLive('p')).toBe(false);
    const off = bus.subscribe('p', () => {});
    expect(bus.shownLive('p')).toBe(true);
    off();
    expect(bus.shownLive('p')).toBe(false);
  });

  it('exit is reported once, after any pending change, and replayed to late subscribers', async () => {
    const bus = new PaneEventBus(20);
    const seen: PaneEvent[] = [];
    bus.subscribe('p', (e) => seen.push(e));
    bus.touch('p');
    bus.exit('p', 3);
    bus.exit('p', 0);
    expect(seen).toEqual([{ type: 'changed' }, { type: 'exited', code: 3 }]);
    const late: PaneEvent[] = [];
    bus.subscribe('p', (e) => late.push(e));
    await Promise.resolve();
    expect(late).toEqual([{ type: 'exited', code: 3 }]);
  });

  it('panes do not hear each other, and a throwing listener does not silence the rest', () => {
    const bus = new PaneEventBus(20);
    const a: PaneEvent[] = [];
    bus.subscribe('a', () => {
      throw new Error('listener bug');
    });
    bus.subscribe('a', (e) => a.push(e));
    const b: PaneEvent[] = [];
    bus.subscribe('b', (e) => b.push(e));
    bus.touch('a');
    vi.advanceTimersByTime(20);
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(0);
  });
});

describe('a frame every listener knows is dropped before it costs a timer', () => {
  beforeEach(() => fakeClock());
  afterEach(() => vi.useRealTimers());

  function knowing(keys: number[]) {
    const seen: PaneEvent[] = [];
    let skipped = 0;
    const options = { repaints: { known: (k: number) => keys.includes(k), skipped: () => void skipped++ } };
    return { seen, options, listener: (e: PaneEvent) => void seen.push(e), skipped: () => skipped };
  }

  it('a known frame arms nothing and is counted skipped; an unknown one is a changed event listing it', () => {
    const bus = new PaneEventBus(20);
    const feed = knowing([7]);
    bus.subscribe('p', feed.listener, feed.options);
    bus.touch('p', 7);
    expect(vi.getTimerCount(), 'timers armed for a known frame').toBe(0);
    vi.advanceTimersByTime(20);
    expect(feed.seen).toEqual([]);
    expect(feed.skipped()).toBe(1);
    bus.touch('p', 8);
    bus.touch('p', 7); // folded into the waiting burst, never cut out of it
    vi.advanceTimersByTime(20);
    expect(feed.seen).toEqual([{ type: 'changed', repaints: [8, 7] }]);
    expect(feed.skipped()).toBe(1);
  });

  it('a listener that cannot tell repaints (a page showing the pane, a key waiting for its echo) still gets every frame', () => {
    const bus = new PaneEventBus(20);
    const feed = knowing([7]);
    bus.subscribe('p', feed.listener, feed.options);
    const page: PaneEvent[] = [];
    const off = bus.subscribe('p', (e) => page.push(e));
    bus.touch('p', 7);
    vi.advanceTimersByTime(20);
    expect(page).toEqual([{ type: 'changed', repaints: [7] }]);
    expect(feed.seen).toEqual([{ type: 'changed', repaints: [7] }]);
    expect(feed.skipped()).toBe(0);
    off();
    bus.touch('p', 7);
    vi.advanceTimersByTime(20);
    expect(feed.seen).toHaveLength(1);
    expect(feed.skipped()).toBe(1);
  });

  it('a frame without a key, or on a pane nobody listens to, is coalesced as before', () => {
    const bus = new PaneEventBus(20);
    const feed = knowing([7]);
    bus.subscribe('p', feed.listener, feed.options);
    bus.touch('p');
    vi.advanceTimersByTime(20);
    expect(feed.seen).toEqual([{ type: 'changed' }]);
    bus.touch('q', 7);
    expect(vi.getTimerCount()).toBe(1);
  });
});
