/**
 * Issue 46: at 200 streaming workers a question drawn by one of them reached the daemon seconds
 * late, its screen read queued in tmux behind ~900 reads a second of other panes' repaints. Reads
 * on the tmux host now wait in bounded lanes (io/terminal/tmux/read-lanes.ts): at most a few in
 * tmux at once, and a read nobody waits on — a burst too small to be a question, the once-a-second
 * look at a pane whose repaints went unread — goes after every other read. The feed says which
 * of its reads those are; a burst the size of a question, a read asked for and a burst of unknown
 * size are read first.
 */
import { describe, expect, it } from 'vitest';
import { PaneFeed, REPAINT_READ_MS, SMALL_BURST_BYTES } from '../../actors/pane-feed.ts';
import { ReadLanes } from '../../io/terminal/tmux/read-lanes.ts';
import type { PaneEvent, ReadOptions, ReadResult, TerminalHost } from '../../io/terminal/types.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { reading } from '../actors/helpers/scripted-host.ts';
import { fakeClock } from '../actors/helpers/fake-clock.ts';

describe('a question is read before other panes\' repaints', () => {
  it('serves a waiting foreground read before every waiting background read, never more than the limit at once', async () => {
    const lanes = new ReadLanes(2);
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const read = (name: string) => async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      order.push(name);
      await new Promise<void>((r) => gates.push(r));
      inFlight--;
      return name;
    };
    const all = [
      lanes.run(() => true, read('repaint-1')),
      lanes.run(() => true, read('repaint-2')),
      lanes.run(() => true, read('repaint-3')),
      lanes.run(() => true, read('repaint-4')),
      lanes.run(() => false, read('question')),
      lanes.run(() => true, read('repaint-5')),
    ];
    await Promise.resolve();
    expect(order).toEqual(['repaint-1', 'repaint-2']);
    expect(lanes.waiting).toBe(4);
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(all);
    expect(order, 'the question goes first once a lane is free').toEqual(['repaint-1', 'repaint-2', 'question', 'repaint-3', 'repaint-4', 'repaint-5']);
    expect(most).toBe(2);
  });

  it('the feed reads a small burst and the look after skipped repaints in the background, a question-sized burst and an asked read not', async () => {
    let listener: ((e: PaneEvent) => void) | null = null;
    const asked: boolean[] = [];
    let hold: Promise<void> | null = null;
    let askedWhileHeld: ReadOptions | undefined;
    let label = 'work';
    const host = {
      survivesRestart: true,
      subscribe: (_id: string, l: (e: PaneEvent) => void) => ((listener = l), () => (listener = null)),
      readVisible: async (_id: string, opts?: ReadOptions): Promise<ReadResult> => {
        if (hold) {
          askedWhileHeld = opts;
          await hold; // waiting for a lane, as behind other panes' reads
        }
        asked.push(opts?.background?.() === true);
        opts?.started?.();
        return { ok: true, screen: { rows: [], cols: 120, label } as unknown as Screen };
      },
    } as unknown as TerminalHost;
    const analyse = (screen: Screen): ScreenReading => {
      const l = (screen as unknown as { label: string }).label;
      return l === 'menu' ? reading({ state: 'blocked', awaitingInput: true, fingerprint: 'f-menu' }) : reading({ state: 'working', fingerprint: `f-${l}` });
    };
    const time = fakeClock();
    const feed = new PaneFeed({ host, paneId: '%1', agent: 'claude', analyse, onReading: () => {}, onExit: () => {}, clock: time.clock });
    const background = () => asked.at(-1) === true;
    feed.start();
    await feed.settled();
    expect(background(), 'the first read').toBe(false);
    listener!({ type: 'changed', repaints: [7], bytes: 170 }); // a spinner tick, a key not yet known
    await feed.settled();
    expect(background(), 'a spinner-sized burst').toBe(true);
    for (let i = 0; i < 3; i++) listener!({ type: 'changed', repaints: [7], bytes: 170 }); // now known: skipped
    await feed.settled();
    expect(asked.length).toBe(2);
    time.advance(REPAINT_READ_MS);
    await feed.settled();
    expect(asked.length, 'the look after skipped repaints').toBe(3);
    expect(background()).toBe(true);
    label = 'menu';
    listener!({ type: 'changed', repaints: [9], bytes: SMALL_BURST_BYTES * 2 }); // a question drawn
    await feed.settled();
    expect(background(), 'a question-sized burst').toBe(false);
    listener!({ type: 'changed', repaints: [11] }); // size unknown
    await feed.settled();
    expect(background(), 'a burst of unknown size').toBe(false);
    feed.requestRead();
    await feed.settled();
    expect(background(), 'a read asked for').toBe(false);
    // A small burst's read waits for a lane; the question drawn meanwhile promotes it, and it
    // covers the question: one read, not a second one after it.
    label = 'work';
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    listener!({ type: 'changed', repaints: [13], bytes: 170 });
    await new Promise((r) => setTimeout(r, 0));
    expect(askedWhileHeld?.background?.(), 'waiting, a spinner-sized burst').toBe(true);
    label = 'menu';
    listener!({ type: 'changed', repaints: [15], bytes: SMALL_BURST_BYTES * 2 });
    expect(askedWhileHeld?.background?.(), 'waiting, after a question was drawn').toBe(false);
    const before = asked.length;
    hold = null;
    release();
    await feed.settled();
    expect(asked.length - before, 'one read covers both bursts').toBe(1);
    feed.stop();
  });
});
