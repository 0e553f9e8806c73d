/**
 * Rule (issue 21, item 4): durations run on a monotonic clock while the daemon lives, and
 * deadlines survive a restart as absolute times, re-checked. With the wall clock set back two
 * hours under a hung worker with `--stall 40s`, it never stalled in 90 s (controls stalled at
 * 32 s): deadlines were wall-clock times compared once. Fake timers move the wall clock
 * (setSystemTime) apart from the monotonic one (performance.now), as a clock change does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realClock } from '../../actors/ports.ts';
import { reading } from './helpers/scripted-host.ts';
import { driveWorker } from '../machines/helpers/drive-worker.ts';
import { STARTUP_SETTLE_MS } from '../../machines/worker.machine.ts';

const HOUR = 3_600_000;
const STALL = 40_000;
beforeEach(() => { vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance', 'setImmediate'] }); });
afterEach(() => { vi.useRealTimers(); });

/** A worker on the daemon's own clock, walked to running.working. */
async function hungWorker() {
  const d = driveWorker(realClock, { stallMs: STALL, unclassifiedMs: 30_000 });
  await vi.advanceTimersByTimeAsync(10);
  d.screen(reading({ fingerprint: 'f-idle' }));
  await vi.advanceTimersByTimeAsync(STARTUP_SETTLE_MS + 50);
  d.screen(reading({ state: 'working', fingerprint: 'f-hung' }));
  await vi.advanceTimersByTimeAsync(10);
  expect(d.stage()).toBe('running.working');
  return d;
}

describe('a wall-clock jump neither fires nor loses a deadline', () => {
  it('the wall clock set back two hours under a hung worker: it still stalls at --stall 40s', async () => {
    const d = await hungWorker();
    vi.setSystemTime(Date.now() - 2 * HOUR);
    d.screen(reading({ state: 'working', fingerprint: 'f-hung' }));
    await vi.advanceTimersByTimeAsync(STALL - 1_000);
    expect(d.stage()).toBe('running.working');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(d.stage(), 'not stalled 41 s after the last change').toBe('running.stalled');
    d.actor.stop();
  });

  it('the wall clock set forward two hours: nothing fires early', async () => {
    const d = await hungWorker();
    vi.setSystemTime(Date.now() + 2 * HOUR);
    // A repaint and a new screen after the jump: neither may bring the stall forward.
    d.screen(reading({ state: 'working', fingerprint: 'f-hung' }));
    d.screen(reading({ state: 'working', fingerprint: 'f-hung-2' }));
    await vi.advanceTimersByTimeAsync(STALL - 1_000);
    expect(d.stage()).toBe('running.working');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(d.stage()).toBe('running.stalled');
    d.actor.stop();
  });
});
