/**
 * Issue 26: a burst of output made only of repaints already seen to read the same (a spinner
 * frame, a timer tick) is not read at all — no tmux round trip, no parse, no analysis. The feed
 * learns which frame keys are repaints of the reading it delivered, forgets them when the reading
 * changes, still reads a key it does not know at once, and reads anyway within REPAINT_READ_MS
 * while bursts go unread (a key that lied is then logged as a miss). The keys themselves: frames
 * that differ only by spinner glyphs and digits share one; a frame drawn elsewhere does not.
 */
import { describe, expect, it } from 'vitest';
import { PaneFeed, REPAINT_READ_MS } from '../../actors/pane-feed.ts';
import type { Clock } from '../../actors/ports.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { labelOf, labelPane } from './helpers/label-pane.ts';
import { repaintKey } from '../../io/terminal/tmux/repaint-key.ts';
import { reading } from './helpers/scripted-host.ts';
import { fakeClock } from './helpers/fake-clock.ts';



const analyse = (screen: Screen): ScreenReading => {
  const label = labelOf(screen);
  return label === 'menu' ? reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', fingerprint: 'f-menu' }) : reading({ state: 'working', fingerprint: `f-${label}` });
};

function feedOn(p: ReturnType<typeof labelPane>, opts: { clock?: Clock; skipRepaints?: boolean; log?: (o: Record<string, unknown>) => void } = {}) {
  const got: ScreenReading[] = [];
  const feed = new PaneFeed({ host: p.host, paneId: '%1', agent: 'claude', analyse, onReading: (r) => got.push(r), onExit: () => {}, ...opts });
  return { feed, got };
}

describe('a burst of known repaints is not read', () => {
  it('learns a key once it reads the same, skips it after, reads a new key at once, and forgets on a change', async () => {
    const p = labelPane('work');
    const { feed, got } = feedOn(p, { clock: fakeClock().clock });
    feed.start();
    await feed.settled();
    expect(p.reads).toBe(1);
    p.changed([7]); // a key not known yet: read, and it reads the same → learnt
    await feed.settled();
    expect(p.reads).toBe(2);
    for (let i = 0; i < 5; i++) {
      p.changed([7]);
      await feed.settled();
    }
    expect(p.reads, 'five bursts of a learnt repaint').toBe(2);
    expect(feed.counts.skipped).toBe(5);
    p.set('menu');
    p.changed([9]); // the menu: a key never seen
    await feed.settled();
    expect(p.reads).toBe(3);
    expect(got.map((r) => r.state)).toEqual(['working', 'blocked']);
    p.changed([7]); // known in the last reading only: read again in this one
    await feed.settled();
    expect(p.reads, 'keys are forgotten when the reading changes').toBe(4);
    p.changed(); // a burst whose keys are unknown is always read
    await feed.settled();
    expect(p.reads).toBe(5);
    feed.requestRead();
    await feed.settled();
    expect(p.reads, 'a read asked for').toBe(6);
    feed.stop();
  });

  it('while bursts go unread the pane is read anyway within REPAINT_READ_MS, and a key that lied is logged', async () => {
    const p = labelPane('work');
    const { clock, advance } = fakeClock();
    const logged: Array<Record<string, unknown>> = [];
    const { feed, got } = feedOn(p, { clock, log: (o) => logged.push(o) });
    feed.start();
    await feed.settled();
    p.changed([7]);
    await feed.settled();
    p.set('menu'); // drawn by a frame whose key collides with the learnt repaint
    p.changed([7]);
    await feed.settled();
    expect(p.reads).toBe(2);
    advance(REPAINT_READ_MS - 1);
    await feed.settled();
    expect(p.reads).toBe(2);
    advance(1);
    await feed.settled();
    expect(p.reads).toBe(3);
    expect(got.at(-1)?.state).toBe('blocked');
    expect(feed.counts.missed).toBe(1);
    expect(logged.some((o) => o.msg === 'repaint skipped a change')).toBe(true);
    advance(REPAINT_READ_MS * 3); // nothing skipped since: no further read
    await feed.settled();
    expect(p.reads).toBe(3);
    feed.stop();
  });

  it('with skipRepaints off every burst is read', async () => {
    const p = labelPane('work');
    const { feed } = feedOn(p, { skipRepaints: false });
    feed.start();
    await feed.settled();
    for (let i = 0; i < 4; i++) {
      p.changed([7]);
      await feed.settled();
    }
    expect(p.reads).toBe(5);
    feed.stop();
  });
});

describe('repaint keys', () => {
  const key = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    return repaintKey(b, 0, b.length);
  };
  // As tmux sends a frame: bytes below 32 and the backslash escaped as \ooo.
  const frame = (glyph: string, seconds: number, row = 30) => `\\033[${row};1H\\033[38;5;174m${glyph}\\033[39m Clauding… (${seconds}s · ↓ ${seconds * 7} tokens)\\015`;

  it('frames that differ only by the spinner glyph and the counters share a key', () => {
    expect(key(frame('✢', 3))).toBe(key(frame('✶', 4)));
    expect(key(frame('·', 12))).toBe(key(frame('✻', 99)));
  });

  it('a frame drawn on another row, in another colour, or with other words has another key', () => {
    expect(key(frame('✢', 3, 30))).not.toBe(key(frame('✢', 3, 31)));
    expect(key(frame('✢', 3))).not.toBe(key(frame('✢', 3).replace('174m', '175m')));
    expect(key(frame('✢', 3))).not.toBe(key(frame('✢', 3).replace('Clauding', 'Thinking')));
    expect(key('\\033[12;1H❯ 1. Yes')).not.toBe(key('\\033[12;1H  1. Yes'));
  });

  it('an escaped backslash is text, and digits inside a title are kept', () => {
    expect(key('a\\134b')).not.toBe(key('ab'));
    expect(key('\\033]0;task 1\\007')).not.toBe(key('\\033]0;task 2\\007'));
  });
});
