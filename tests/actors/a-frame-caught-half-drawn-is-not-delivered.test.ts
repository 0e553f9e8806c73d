/**
 * A read can fall between two pieces of one frame: a full-screen redraw between its clear and its
 * repaint, a dialog before its choices. Such a screen reads "could not tell". At Claude Code's
 * real byte rate (issue 46) a working pane was delivered as working and unknown by turns, several
 * times a second: every face saw the state flicker, and each flicker was a machine step, a view
 * and a journal row. The feed holds a could-not-tell reading that follows a working or a blocked
 * one for up to UNSURE_HOLD_MS; the rest of the frame replaces it (a Qwen Code dialog redrawn under
 * load, caught before its choices, knocked a blocked worker to "unsure" as a person answered it).
 * One that lasts is delivered, late by at most the hold; a failed read is never held, nor one after
 * an idle screen (the first prompt waits for a start screen that holds still: an agent loading a
 * resumed conversation clears and redraws it, and the machine must see that). A read asked for is
 * not held: caught half drawn, the pane is read again at once (a bounded number of times). At the
 * pane's end the held screen is dropped and the screen the agent left is read and told first.
 */
import { describe, expect, it, vi } from 'vitest';
import { HALF_DRAWN_REREADS, PaneFeed, UNSURE_HOLD_MS } from '../../actors/pane-feed.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { labelOf, labelPane } from './helpers/label-pane.ts';
import { reading } from './helpers/scripted-host.ts';
import { fakeClock } from './helpers/fake-clock.ts';

const analyse = (screen: Screen): ScreenReading => {
  const label = labelOf(screen);
  if (label === 'working') return reading({ state: 'working', fingerprint: 'f-work' });
  if (label === 'idle') return reading({ state: 'idle', fingerprint: 'f-idle' });
  if (label === 'blocked') return reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', fingerprint: 'f-menu' });
  if (label === 'goodbye') return reading({ state: 'exited', fingerprint: 'f-goodbye', promptBox: null });
  // half drawn: the screen cleared, the transcript scrolling through it, no box and no spinner yet
  return reading({ state: 'unknown', fingerprint: `f-${label}`, promptBox: null });
};

function feedOn() {
  const p = labelPane('working');
  const c = fakeClock();
  const got: string[] = [];
  const feed = new PaneFeed({ host: p.host, paneId: '%1', agent: 'claude', analyse, clock: c.clock, onReading: (r) => got.push(r.state), onExit: (code) => got.push(`exit ${code}`) });
  feed.start();
  const draw = async (label: string) => {
    p.draw(label);
    await feed.settled();
  };
  return { feed, got, draw, set: p.set, exit: p.exit, advance: c.advance, pane: p };
}

describe('a frame caught half drawn is not delivered', () => {
  it('a redraw read between its clear and its repaint never reaches the worker: the frame after it replaces it', async () => {
    const f = feedOn();
    await f.feed.settled();
    for (let i = 0; i < 5; i++) {
      await f.draw(`cleared-${i}`);
      await f.draw(`scrolling-${i}`);
      await f.draw('working');
    }
    f.advance(UNSURE_HOLD_MS * 2);
    expect(f.got).toEqual(['working']);
    // A dialog caught before its choices, then drawn whole: blocked once, nothing in between.
    await f.draw('half-dialog');
    await f.draw('blocked');
    f.advance(UNSURE_HOLD_MS * 2);
    expect(f.got).toEqual(['working', 'blocked']);
    f.feed.stop();
  });

  it('a screen that stays could-not-tell is delivered once the hold is over, the latest of it', async () => {
    const f = feedOn();
    await f.feed.settled();
    await f.draw('cleared');
    f.advance(UNSURE_HOLD_MS - 1);
    await f.draw('still-cleared');
    expect(f.got, 'within the hold').toEqual(['working']);
    // The bound runs from the first: one more millisecond and the latest is delivered.
    f.advance(1);
    expect(f.got).toEqual(['working', 'unknown']);
    // Now nothing is held: could-not-tell after could-not-tell is delivered as it comes.
    await f.draw('cleared-again');
    expect(f.got).toEqual(['working', 'unknown', 'unknown']);
    f.feed.stop();
  });

  it('a pane that ends while a half-drawn screen is held: the held screen is dropped, the screen the agent left is read and told before the end, and the end is the last word', async () => {
    const f = feedOn();
    await f.feed.settled();
    await f.draw('cleared');
    // The goodbye drawn, its burst not yet read, and the pane ends.
    f.set('goodbye');
    f.exit(0);
    await f.feed.settled();
    await vi.waitFor(() => expect(f.got.at(-1), 'the end told').toBe('exit 0'), { timeout: 2_000 });
    f.advance(UNSURE_HOLD_MS * 2);
    expect(f.got).toEqual(['working', 'exited', 'exit 0']);
    f.feed.stop();
  });

  it('a pane that ends with a screen that says nothing new: the end alone is told', async () => {
    const f = feedOn();
    await f.feed.settled();
    f.exit(0);
    await vi.waitFor(() => expect(f.got.at(-1), 'the end told').toBe('exit 0'), { timeout: 2_000 });
    expect(f.got).toEqual(['working', 'exit 0']);
    f.feed.stop();
  });

  it('after an idle screen a could-not-tell one is delivered at once: a start screen cleared while the agent loads is not a still one', async () => {
    const f = feedOn();
    await f.feed.settled();
    await f.draw('idle');
    await f.draw('loading');
    await f.draw('idle');
    expect(f.got).toEqual(['working', 'idle', 'unknown', 'idle']);
    f.feed.stop();
  });

  it('a dialog redrawn and caught before its choices never takes a blocked worker out of blocked', async () => {
    const f = feedOn();
    await f.feed.settled();
    await f.draw('blocked');
    for (let i = 0; i < 3; i++) {
      await f.draw(`half-dialog-${i}`);
      await f.draw('blocked');
    }
    f.advance(UNSURE_HOLD_MS * 2);
    expect(f.got).toEqual(['working', 'blocked']);
    f.feed.stop();
  });

  it('a failed read is delivered at once; a read asked for is never held: caught half drawn it is read again, and one that stays so is delivered after the rereads', async () => {
    const f = feedOn();
    await f.feed.settled();
    await f.draw('fail');
    expect(f.got, 'a failed read is could-not-tell at once').toEqual(['working', 'unknown']);
    await f.draw('working');
    // Caught half drawn, finished just after: the read asked for delivers the finished frame.
    f.set('cleared');
    f.pane.drawnAfterRead('working');
    f.feed.requestRead();
    await f.feed.settled();
    expect(f.got).toEqual(['working', 'unknown', 'working', 'working']);
    // Half drawn for good: delivered as it is, after HALF_DRAWN_REREADS more reads, with no clock moved.
    const before = f.pane.reads;
    f.set('cleared');
    f.feed.requestRead();
    await f.feed.settled();
    expect(f.got).toEqual(['working', 'unknown', 'working', 'working', 'unknown']);
    expect(f.pane.reads - before).toBe(1 + HALF_DRAWN_REREADS);
    f.feed.stop();
  });
});
