/**
 * The hush of a pouring tmux pane (io/terminal/tmux/pour-hush.ts), on a fake clock and a fake
 * control client: what it asks tmux, when, and what it tells the bus. The real tmux side is
 * tests/terminal/a-pouring-pane-is-hushed-between-its-reads.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POUR_MS } from '../../io/terminal/pane-events.ts';
import { PourHush } from '../../io/terminal/tmux/pour-hush.ts';
import { ControlClosedError, ControlCommandError } from '../../io/terminal/tmux/control-client.ts';

function world(reply: (line: string) => Promise<string[]> = async () => []) {
  const sent: string[] = [];
  const told: string[] = [];
  const notices: string[] = [];
  const watched = new Set(['%3', '%4']);
  const hush = new PourHush({
    command: (line) => {
      sent.push(line);
      return reply(line);
    },
    hushed: (paneId) => told.push(`hushed ${paneId}`),
    unseenOutput: (paneId) => told.push(`unseen ${paneId}`),
    watching: (paneId) => watched.has(paneId),
    notice: (message) => notices.push(message),
  });
  return { hush, sent, told, notices, watched };
}

describe('a pouring pane hushed between its reads', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a pane announced as poured is paused, continued after POUR_MS and told to the bus as unseen output', async () => {
    const w = world();
    w.hush.announced('%3', true);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'"]);
    expect(w.told).toEqual(['hushed %3']);
    w.hush.drew('%3'); // a piece tmux had sent before the pause: nothing more
    w.hush.announced('%3', false); // the read of that announcement: still paused
    vi.advanceTimersByTime(POUR_MS - 1);
    expect(w.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(w.sent).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'"]);
    expect(w.told).toEqual(['hushed %3', 'unseen %3']);
    expect(w.hush.paused).toBe(1);
  });

  it('after a resume, its first byte hushes it again; a pane quiet since is read as any other and left alone', () => {
    const w = world();
    w.hush.announced('%3', true);
    w.hush.announced('%4', true);
    vi.advanceTimersByTime(POUR_MS);
    w.hush.drew('%3');
    expect(w.sent.filter((l) => l.includes('%3'))).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'", "refresh-client -A '%3:pause'"]);
    w.hush.announced('%4', false); // the read after its resume, with nothing drawn: a question, the turn's end
    w.hush.drew('%4');
    vi.advanceTimersByTime(POUR_MS * 4);
    expect(w.sent.filter((l) => l.includes('%4'))).toEqual(["refresh-client -A '%4:pause'", "refresh-client -A '%4:continue'"]);
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

  it('a tmux that refuses the command turns hushing off until the next connection, and the pane is read', async () => {
    const w = world(async (line) => {
      throw new ControlCommandError(`unknown flag -A (${line})`);
    });
    w.hush.announced('%3', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.notices).toHaveLength(1);
    expect(w.told).toEqual(['hushed %3', 'unseen %3']);
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
    w.hush.reset();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(POUR_MS);
    expect(w.sent.filter((l) => l.includes('continue'))).toEqual([]);
  });
});
