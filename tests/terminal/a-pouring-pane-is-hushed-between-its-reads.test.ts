/**
 * Issue 46: at Claude Code's real byte rate (~0.3 MB/s a worker) the daemon's CPU went on taking
 * in every byte of `%output` and on reading each pane every window. A pane that pours is now read
 * at most every POUR_MS (io/terminal/pane-events.ts), and between two reads its output to our
 * control client is paused (io/terminal/tmux/pour-hush.ts). On a real tmux pane with the mock
 * agent writing at the real byte rate: the pane is hushed again and again while its turn works,
 * it is read a few times a second rather than every window, and yet the turn's end and a
 * question drawn while it pours are each delivered within a second of being drawn, and nothing
 * a skipped burst changed is missed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PaneFeed } from '../../actors/pane-feed.ts';
import { analyseScreen, type ScreenReading } from '../../io/screen/index.ts';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { POUR_MS } from '../../io/terminal/pane-events.ts';
import { startMock } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';
import { nextReading } from './next-reading.ts';

type Timed = ScreenReading & { at: number };
const now = () => performance.timeOrigin + performance.now();

/** When the mock drew `event` last (its event log: the moment just before the frame was written). */
function drawnAt(log: string, event: string): number {
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  const hit = lines.map((l) => JSON.parse(l) as { event: string; t: number }).filter((e) => e.event === event).at(-1);
  if (!hit) throw new Error(`the mock logged no ${event} in ${log}`);
  return hit.t;
}

describe('a tmux pane that pours is hushed between its reads', () => {
  const defer = useCleanups();

  it('is read a few times a second while it pours, yet its turn end and a question are each seen within a second', async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-pour');
    const log = join(dir, 'events.jsonl');
    const { pane } = await startMock(host, { name: 'pour', dir, env: { KH_MOCK_STREAM: 'real', KH_MOCK_EVENT_LOG: log } });
    const got: Timed[] = [];
    const feed = new PaneFeed({ host, paneId: pane.paneId, agent: 'claude', analyse: (s) => analyseScreen(s, 'claude'), onReading: (r) => got.push({ ...r, at: now() }), onExit: () => {} });
    feed.start();
    defer(() => feed.stop());
    await nextReading(got, (r) => r.state === 'idle', 'the first idle box');

    // A slow turn (2.5 s) written at the real byte rate, then the idle box.
    await guardedSendText(host, pane.paneId, 'MODE:slow pour at the real byte rate');
    await nextReading(got, (r) => r.state === 'working', 'the working screen');
    const atWork = { read: feed.counts.read, hushed: host.hushes() };
    const workedFrom = now();
    const idle = await nextReading(got, (r) => r.state === 'idle' && r.promptBoxKind === 'empty', 'the idle box after the pouring turn');
    const pouredMs = drawnAt(log, 'turn-finished') - workedFrom;
    const reads = feed.counts.read - atWork.read;
    expect(host.hushes() - atWork.hushed, 'times the pouring pane was hushed').toBeGreaterThanOrEqual(3);
    // Every window (20 ms) would be ~50 a second; at most one a POUR_MS is ~7, and a read the turn's end asks.
    expect(reads, `reads over ${Math.round(pouredMs)} ms of pouring`).toBeLessThanOrEqual(Math.ceil((pouredMs / POUR_MS) * 1.5) + 4);
    expect(idle.at - drawnAt(log, 'turn-finished'), 'the turn end seen after it was drawn (ms)').toBeLessThan(1_000);

    // A question drawn while the pane still pours (the mock keeps rewriting its frame, menu and all).
    await guardedSendText(host, pane.paneId, 'MODE:ask pick one');
    const blocked = await nextReading(got, (r) => r.state === 'blocked', 'the question menu');
    expect(blocked.blockedReason).toBe('question');
    expect(blocked.at - drawnAt(log, 'menu-drawn'), 'the question seen after it was drawn (ms)').toBeLessThan(1_000);
    expect(feed.counts.missed, 'a skipped burst that had changed the reading').toBe(0);
  });
});
