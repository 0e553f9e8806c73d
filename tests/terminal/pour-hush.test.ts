/**
 * The hush of a pouring tmux pane (io/terminal/tmux/pour-hush.ts), on a fake clock and a fake
 * control client: what it asks tmux, when, and what it tells the bus. The real tmux side is
 * tests/terminal/a-pouring-pane-is-hushed-between-its-reads.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAUSE_MS, POUR_MS } from '../../io/terminal/pane-events.ts';
import { POURING_READ_MS, PourHush } from '../../io/terminal/tmux/pour-hush.ts';
import { ControlClosedError, ControlCommandError } from '../../io/terminal/tmux/control-client.ts';

function world(reply: (line: string) => Promise<string[]> = async () => []) {
  const sent: string[] = [];
  const told: string[] = [];
  const notices: string[] = [];
  const watched = new Set(['%3', '%4']);
  const live = new Set<string>();
  const hush = new PourHush({
    command: (line) => {
      sent.push(line);
      return reply(line);
    },
    hushed: (paneId) => told.push(`hushed ${paneId}`),
    unseenOutput: (paneId) => told.push(`unseen ${paneId}`),
    watching: (paneId) => watched.has(paneId),
    shownLive: (paneId) => live.has(paneId),
    notice: (message) => notices.push(message),
  });
  return { hush, sent, told, notices, watched, live };
}

describe('a pouring pane hushed between its reads', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a pane announced as poured is paused, its in-flight output dropped, and continued after POUR_MS', () => {
    const w = world();
    w.hush.announced('%3', true);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'"]);
    expect(w.told).toEqual(['hushed %3']);
    expect(w.hush.drew('%3'), 'a piece tmux sent before it took the pause is the hush\'s').toBe(true);
    w.hush.announced('%3', false); // the read of that announcement: still paused
    vi.advanceTimersByTime(POUR_MS - 1);
    expect(w.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'"]);
    expect(w.hush.paused).toBe(1);
  });

  it('a pane that still pours after a resume is hushed again at its first byte, and read at a resume every POURING_READ_MS', () => {
    const w = world();
    w.hush.announced('%3', true); // read then (the bus's announcement)
    const reads: number[] = [];
    for (let t = 0; t < 2_000; t += 5) {
      if (w.hush.drew('%3') === false) throw new Error(`a byte at ${t} ms reached the bus`);
      const told = w.told.length;
      vi.advanceTimersByTime(5);
      if (w.told.slice(told).includes('unseen %3')) reads.push(t + 5);
    }
    expect(w.hush.paused, 'pauses over 2 s of pouring').toBeGreaterThanOrEqual(Math.floor(2_000 / (POUR_MS + 5)));
    const gaps = reads.map((t, i) => t - (i === 0 ? 0 : reads[i - 1]!));
    expect(gaps.every((g) => g >= POURING_READ_MS && g < POURING_READ_MS + POUR_MS + 10), `reads at ${reads.join(', ')}`).toBe(true);
  });

  it('a pane quiet after a resume (a question, the turn\'s end) is read PAUSE_MS later, then left alone', () => {
    const w = world();
    w.hush.announced('%3', true);
    vi.advanceTimersByTime(POUR_MS);
    expect(w.told).toEqual(['hushed %3']);
    vi.advanceTimersByTime(PAUSE_MS);
    expect(w.told).toEqual(['hushed %3', 'unseen %3']);
    expect(w.hush.drew('%3'), 'a byte after: the bus\'s, read as any pane').toBe(false);
    vi.advanceTimersByTime(POUR_MS * 4);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'"]);
  });

  it('a pane read at a resume and found quiet after it is read again then: that read is the first of a pane no longer pouring', () => {
    const w = world();
    w.hush.announced('%3', true);
    expect(w.hush.pouring('%3'), 'paused').toBe(true);
    // It pours on past POURING_READ_MS, so a resume reads it, still pouring.
    for (let t = 0; t < POURING_READ_MS + POUR_MS; t += 5) {
      w.hush.drew('%3');
      vi.advanceTimersByTime(5);
    }
    const before = w.told.filter((x) => x === 'unseen %3').length;
    expect(before, 'read at a resume while it poured').toBeGreaterThanOrEqual(1);
    expect(w.hush.pouring('%3'), 'resumed, not yet found quiet').toBe(true);
    // Then it stops: read once more, and no longer pouring.
    vi.advanceTimersByTime(POUR_MS + PAUSE_MS);
    expect(w.hush.pouring('%3')).toBe(false);
    expect(w.told.filter((x) => x === 'unseen %3').length, 'read when found quiet').toBe(before + 1);
    expect(w.told.at(-1)).toBe('unseen %3');
  });

  it('a pane not announced as poured, or no longer watched, or with an id that is not a pane id, is never paused', () => {
    const w = world();
    w.hush.announced('%3', false);
    w.hush.drew('%3');
    w.watched.delete('%4');
    w.hush.announced('%4', true);
    w.hush.announced("%5'; kill-server; '", true);
    w.hush.announced('%5 ', true);
    expect(w.sent).toEqual([]);
  });

  it('a pane someone shows live (the review page) is not hushed, and one that comes on screen mid-pour is not hushed again', () => {
    const w = world();
    w.live.add('%4');
    w.hush.announced('%4', true);
    expect(w.sent).toEqual([]);
    w.hush.announced('%3', true);
    w.live.add('%3');
    vi.advanceTimersByTime(POUR_MS);
    expect(w.hush.drew('%3'), 'the first byte after the resume: the page\'s, through the bus').toBe(false);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'"]);
  });

  it('a tmux that refuses the command turns hushing off until the next connection, and the pane is read', async () => {
    const w = world(async (line) => {
      throw new ControlCommandError(`unknown flag -A (${line})`);
    });
    w.hush.announced('%3', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.notices).toHaveLength(1);
    expect(w.told).toEqual(['hushed %3', 'unseen %3']);
    expect(w.hush.drew('%3')).toBe(false);
    w.hush.announced('%4', true);
    vi.advanceTimersByTime(POUR_MS);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'"]);
    w.hush.reset();
    w.hush.announced('%4', true);
    expect(w.sent).toHaveLength(2);
  });

  it('a client that went away is not a refusal: the pane is read, and the next pour is hushed again', async () => {
    let closed = true;
    const w = world(async () => {
      if (closed) throw new ControlClosedError('tmux control client ended');
      return [];
    });
    w.hush.announced('%3', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.notices).toEqual([]);
    expect(w.told).toEqual(['hushed %3', 'unseen %3']);
    closed = false;
    w.hush.announced('%3', true);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:pause'"]);
  });

  it('a dropped pane and a reset leave no timer behind', () => {
    const w = world();
    w.hush.announced('%3', true);
    w.hush.announced('%4', true);
    w.hush.drop('%3');
    expect(vi.getTimerCount()).toBe(1);
    expect(w.hush.drew('%3')).toBe(false);
    w.hush.reset();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(POUR_MS);
    expect(w.sent.filter((l) => l.includes('continue'))).toEqual([]);
  });
});
