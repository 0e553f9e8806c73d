import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaneEventBus } from '../../io/terminal/pane-events.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';

describe('pane events', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a burst of output is one changed event, carrying nothing', () => {
    const bus = new PaneEventBus(20);
    const seen: PaneEvent[] = [];
    bus.subscribe('p', (e) => seen.push(e));
    for (let i = 0; i < 50; i++) bus.touch('p');
    vi.advanceTimersByTime(20);
    expect(seen).toEqual([{ type: 'changed' }]);
  });

  it('continuous output still yields a changed event every window (a throttle, not a debounce)', () => {
    const bus = new PaneEventBus(20);
    let changed = 0;
    bus.subscribe('p', () => changed++);
    for (let t = 0; t < 200; t += 5) {
      bus.touch('p');
      vi.advanceTimersByTime(5);
    }
    expect(changed).toBeGreaterThanOrEqual(9);
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
  beforeEach(() => vi.useFakeTimers());
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
