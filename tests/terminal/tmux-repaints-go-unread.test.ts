/**
 * Issue 26: a working agent repaints its spinner and timer ten times a second, and each repaint
 * used to cost the daemon a tmux round trip, a parse and an analysis. With tmux's `%output` keys
 * (io/terminal/tmux/repaint-key.ts) the pane feed reads a burst only when it draws something not
 * already known to read the same. On a real tmux pane with the mock agent: a slow turn's spinner
 * goes mostly unread, yet the turn's end and a question menu are delivered at once, and no
 * skipped burst ever hid a change.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PaneFeed } from '../../actors/pane-feed.ts';
import { analyseScreen, type ScreenReading } from '../../io/screen/index.ts';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { startMock } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';
import { nextReading } from './next-reading.ts';

describe('repaints of a tmux pane go unread', () => {
  const defer = useCleanups();

  it('a slow turn is mostly unread, yet its end and the next menu are read at once and nothing is missed', async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-repaints');
    const { pane } = await startMock(host, { name: 'spinner', dir });
    const got: ScreenReading[] = [];
    const feed = new PaneFeed({ host, paneId: pane.paneId, agent: 'claude', analyse: (s) => analyseScreen(s, 'claude'), onReading: (r) => got.push(r), onExit: () => {} });
    feed.start();
    defer(() => feed.stop());

    await guardedSendText(host, pane.paneId, 'MODE:slow show the spinner');
    await nextReading(got, (r) => r.state === 'working', 'the working spinner');
    const atWork = { ...feed.counts };
    const idle = await nextReading(got, (r) => r.state === 'idle' && r.promptBoxKind === 'empty', 'the idle box after the slow turn (2.5 s of spinner)');
    expect(idle.readable).toBe(true);
    const turn = { read: feed.counts.read - atWork.read, skipped: feed.counts.skipped - atWork.skipped };
    // 2.5 s at a 100 ms tick: about 25 bursts. Every new second's timer and the reading window
    // are read; the rest are repaints already known.
    expect(turn.skipped, `bursts skipped during the turn (read ${turn.read})`).toBeGreaterThanOrEqual(10);
    expect(turn.read, `bursts read during the turn (skipped ${turn.skipped})`).toBeLessThan(turn.skipped);

    await guardedSendText(host, pane.paneId, 'MODE:ask pick one');
    const blocked = await nextReading(got, (r) => r.state === 'blocked', 'the question menu');
    expect(blocked.blockedReason).toBe('question');
    expect(feed.counts.missed, 'a skipped burst that had changed the reading').toBe(0);
  });
});
