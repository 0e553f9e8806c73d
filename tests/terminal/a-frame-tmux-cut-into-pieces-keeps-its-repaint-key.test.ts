/**
 * Issue 46: at 200 busy panes tmux sends each pane's output in pieces of its own choosing
 * (`8192 / panes / 3` bytes a round), so a spinner frame came as ~4 `%output` lines cut at other
 * places each time. A repaint key per line made every cut a new key, and the feeds read again:
 * ~300 reads a second of repaints. The key is now hashed per pane across the pieces and taken
 * when the burst ends (io/terminal/tmux/repaint-key.ts, io/terminal/pane-events.ts): the same
 * frame has the same key however it was cut, so a repeating spinner goes unread — and a question
 * drawn, cut anywhere, is never a known key: it is read.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaneEventBus } from '../../io/terminal/pane-events.ts';
import { HASHED_BYTES, RepaintKeyStream, repaintKey } from '../../io/terminal/tmux/repaint-key.ts';
import { PaneFeed } from '../../actors/pane-feed.ts';
import type { ReadResult, TerminalHost } from '../../io/terminal/types.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { reading } from '../actors/helpers/scripted-host.ts';
import { fakeClock } from '../actors/helpers/fake-clock.ts';

// As tmux sends a frame: bytes below 32 and the backslash escaped as \ooo, everything else raw.
const spinner = (glyph: string, seconds: number) => `\\033[30;1H\\033[38;5;174m${glyph}\\033[39m Clauding… (${seconds}s · ↓ ${seconds * 7} tokens)\\033[K`;
const question = '\\033[12;1H\\033[1mWhich database?\\033[0m\\033[K\\033[13;1H❯ 1. Postgres\\033[K\\033[14;1H  2. SQLite\\033[K';

/** The places tmux can cut a line: between bytes it escaped whole (never inside a `\ooo`). */
function cutPoints(s: string): number[] {
  const b = Buffer.from(s, 'utf8');
  const points: number[] = [];
  for (let i = 1; i < b.length; i++) {
    const inEscape = [1, 2, 3].some((k) => i - k >= 0 && b[i - k] === 0x5c && /^\\[0-7]{3}$/.test(b.toString('latin1', i - k, i - k + 4)));
    if (!inEscape) points.push(i);
  }
  return points;
}

/** The frame's bytes cut at `at` (byte offsets, ascending) into pieces. */
function pieces(s: string, at: number[]): Buffer[] {
  const b = Buffer.from(s, 'utf8');
  const edges = [0, ...at, b.length];
  return edges.slice(1).map((end, k) => b.subarray(edges[k]!, end));
}

function streamKey(parts: Buffer[]): number | undefined {
  const s = new RepaintKeyStream();
  for (const p of parts) s.add(p, 0, p.length);
  return s.take();
}

/** Deterministic cuts: three per frame, spread by a seed (tmux cut the mock's frames into ~3-4). */
function threeCuts(s: string, seed: number): number[] {
  const points = cutPoints(s);
  const pick = (k: number) => points[(seed * 7919 + k * 104729) % points.length]!;
  return [...new Set([pick(1), pick(2), pick(3)])].sort((a, b) => a - b);
}

describe('a frame tmux cut into pieces keeps its repaint key', () => {
  it('the same frame has the same key cut at any one place, inside a control sequence or a UTF-8 glyph too', () => {
    const whole = repaintKey(Buffer.from(spinner('✢', 3)), 0, Buffer.byteLength(spinner('✢', 3)));
    for (const at of cutPoints(spinner('✢', 3))) expect(streamKey(pieces(spinner('✢', 3), [at])), `cut at byte ${at}`).toBe(whole);
    for (let seed = 0; seed < 200; seed++) expect(streamKey(pieces(spinner('✶', 4 + seed), threeCuts(spinner('✶', 4 + seed), seed)))).toBe(whole);
  });

  it('a key per piece, as before, changed with every cut (what made the feeds read again)', () => {
    const parts = pieces(spinner('✢', 3), threeCuts(spinner('✢', 3), 1));
    const whole = streamKey([Buffer.from(spinner('✢', 3))]);
    expect(parts.map((p) => repaintKey(p, 0, p.length))).not.toContain(whole);
  });

  it('a question cut anywhere never has the spinner\'s key, nor a spinner frame followed by a question', () => {
    const spin = streamKey([Buffer.from(spinner('✢', 3))]);
    for (const at of cutPoints(question)) expect(streamKey(pieces(question, [at]))).not.toBe(spin);
    for (let seed = 0; seed < 50; seed++) {
      const both = spinner('·', seed) + question;
      expect(streamKey(pieces(both, threeCuts(both, seed)))).not.toBe(spin);
    }
  });

  it('a burst with a piece the host could not read off the bytes has no key, and the next burst starts afresh', () => {
    const s = new RepaintKeyStream();
    const b = Buffer.from(spinner('✢', 3));
    s.add(b, 0, 10);
    s.poison();
    s.add(b, 10, b.length);
    expect(s.take()).toBeUndefined();
    expect(s.take(), 'nothing drawn since').toBeUndefined();
    s.add(b, 0, b.length);
    expect(s.take()).toBe(repaintKey(b, 0, b.length));
  });
});

describe('a burst larger than what is hashed (a pour, a full-screen redraw)', () => {
  /** A redraw as tmux sends it: rows of styled text, `bytes` long or a little more. */
  const redraw = (bytes: number) => {
    let s = '';
    for (let k = 0; s.length < bytes; k++) s += `\\033[38;5;246mRead line ${k} of the module\\033[39m\\033[K\\015\\012`;
    return s;
  };

  it('has no key, so it is read, never taken for a repaint already seen', () => {
    const big = Buffer.from(redraw(HASHED_BYTES + 100));
    const s = new RepaintKeyStream();
    s.add(big, 0, big.length);
    expect(s.take()).toBeUndefined();
    for (const at of cutPoints(redraw(HASHED_BYTES + 100)).filter((_, k) => k % 997 === 0)) {
      for (const part of pieces(redraw(HASHED_BYTES + 100), [at])) s.add(part, 0, part.length);
      expect(s.take(), `cut at ${at}`).toBeUndefined();
    }
    const small = Buffer.from(redraw(HASHED_BYTES - 200));
    s.add(small, 0, small.length);
    expect(s.take(), 'a burst within the bound keeps its key').toBe(repaintKey(small, 0, small.length));
  });

  it('the burst after one is keyed as if the whole had been hashed, wherever it ended: inside a sequence, a title, or text', () => {
    const spin = spinner('✢', 3);
    const title = '\\033]0;✳ Claude Code\\007';
    for (const tail of ['\\033[38;5', '\\033]0;✳ Claude', '\\033', 'plain text', '\\033[39m', `${title}\\033[2`]) {
      const big = Buffer.from(redraw(HASHED_BYTES + 500) + tail);
      const rest = Buffer.from(`;1H${spin}`);
      const followed = new RepaintKeyStream();
      followed.add(big, 0, big.length);
      followed.take();
      followed.add(rest, 0, rest.length);
      // The same two bursts through a stream that hashed everything: the parser's state at the cut is what matters.
      const hashedAll = new RepaintKeyStream();
      hashedAll.add(Buffer.from(tail), 0, Buffer.byteLength(tail));
      hashedAll.take();
      hashedAll.add(rest, 0, rest.length);
      expect(followed.take(), `a burst ending in ${JSON.stringify(tail)}`).toBe(hashedAll.take());
    }
  });
});

describe('pieces on the pane event bus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A bus whose bursts are keyed by one stream per pane, as the tmux host wires it. */
  function pieceBus(known: number[]) {
    const streams = new Map<string, RepaintKeyStream>();
    const stream = (id: string) => streams.get(id) ?? (streams.set(id, new RepaintKeyStream()), streams.get(id)!);
    const bus = new PaneEventBus(20, (id) => stream(id).take());
    const seen: unknown[] = [];
    let skipped = 0;
    bus.subscribe('p', (e) => seen.push(e), { repaints: { known: (k) => known.includes(k), skipped: () => void skipped++ } });
    const send = (parts: Buffer[]) => {
      for (const part of parts) {
        stream('p').add(part, 0, part.length);
        bus.piece('p', part.length);
      }
    };
    return { bus, seen, send, skipped: () => skipped };
  }

  it('a known frame in pieces is counted skipped once at the window\'s end; a question in pieces is one changed event with its key and all its bytes', () => {
    const spin = streamKey([Buffer.from(spinner('✢', 3))])!;
    const t = pieceBus([spin]);
    t.send(pieces(spinner('✻', 9), threeCuts(spinner('✻', 9), 3)));
    vi.advanceTimersByTime(20);
    expect(t.seen).toEqual([]);
    expect(t.skipped()).toBe(1);
    t.send(pieces(question, threeCuts(question, 5)));
    vi.advanceTimersByTime(20);
    expect(t.seen).toEqual([{ type: 'changed', repaints: [streamKey([Buffer.from(question)])], bytes: Buffer.byteLength(question) }]);
    expect(t.skipped()).toBe(1);
  });

  it('a frame whose last piece comes after the window is two bursts of keys not known: both are read, never skipped', () => {
    const spin = streamKey([Buffer.from(spinner('✢', 3))])!;
    const t = pieceBus([spin]);
    const [a, b] = pieces(spinner('✢', 3), [20]);
    t.send([a!]);
    vi.advanceTimersByTime(20);
    t.send([b!]);
    vi.advanceTimersByTime(20);
    expect(t.seen).toHaveLength(2);
    expect(t.skipped()).toBe(0);
  });

  it('the exit flushes a waiting burst of pieces first, as changed', () => {
    const t = pieceBus([]);
    t.send([Buffer.from('bye')]);
    t.bus.exit('p', 0);
    expect(t.seen).toEqual([{ type: 'changed', repaints: [streamKey([Buffer.from('bye')])], bytes: 3 }, { type: 'exited', code: 0 }]);
  });
});

describe('a feed on cut frames', () => {
  it('learns a spinner cut differently every time and stops reading it, yet reads the question at once', async () => {
    vi.useFakeTimers();
    try {
      const streams = new RepaintKeyStream();
      const bus = new PaneEventBus(20, () => streams.take());
      let label = 'work';
      let reads = 0;
      const host = {
        survivesRestart: true,
        subscribe: (id: string, l: Parameters<TerminalHost['subscribe']>[1], o: Parameters<TerminalHost['subscribe']>[2]) => bus.subscribe(id, l, o),
        readVisible: async (): Promise<ReadResult> => {
          reads++;
          return { ok: true, screen: { rows: [], cols: 120, label } as unknown as Screen };
        },
      } as unknown as TerminalHost;
      const got: ScreenReading[] = [];
      const analyse = (screen: Screen): ScreenReading =>
        (screen as unknown as { label: string }).label === 'menu'
          ? reading({ state: 'blocked', awaitingInput: true, blockedReason: 'question', fingerprint: 'f-menu' })
          : reading({ state: 'working', fingerprint: 'f-work' });
      const feed = new PaneFeed({ host, paneId: '%1', agent: 'claude', analyse, onReading: (r) => got.push(r), onExit: () => {}, clock: fakeClock().clock });
      feed.start();
      await vi.advanceTimersByTimeAsync(0);
      const tick = async (frame: string, seed: number) => {
        for (const part of pieces(frame, threeCuts(frame, seed))) {
          streams.add(part, 0, part.length);
          bus.piece('%1', part.length);
        }
        await vi.advanceTimersByTimeAsync(30);
      };
      // Frames 100 ms apart (well inside the feed's once-a-second look): ten, each cut elsewhere.
      for (let i = 0; i < 10; i++) await tick(spinner('✢✶✻·'[i % 4]!, i), i);
      expect(reads, 'the first read and the one that learnt the spinner\'s key').toBe(2);
      expect(feed.counts.skipped).toBe(9);
      label = 'menu';
      await tick(question, 11);
      expect(reads).toBe(3);
      expect(got.at(-1)?.state).toBe('blocked');
      expect(feed.counts.missed).toBe(0);
      feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
