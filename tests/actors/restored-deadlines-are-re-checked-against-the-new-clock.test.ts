/**
 * Rule (issue 21, item 4): deadlines survive a restart as absolute times, re-checked. A daemon
 * restarted after the wall clock was set back would find every deadline hours ahead (lost for
 * those hours); a restored deadline is never further ahead than it could have been armed.
 */
import { describe, it, expect } from 'vitest';
import { SimulatedClock } from 'xstate';
import { settle, toWorking, STALL_MS, type Harness, useHarness } from './helpers/harness.ts';

const HOUR = 3_600_000;
let h: Harness;
const harness = useHarness();

describe('restored deadlines are re-checked against the new clock', () => {
  it('a restart after the clock was set back two hours still stalls within stallMs', async () => {
    h = harness.make();
    h.clock.set(10 * HOUR);
    await h.fleet.start();
    await toWorking(h, 'w1');
    h.clock.increment(STALL_MS / 2);
    await settle(h);
    // The new daemon's clock reads two hours earlier than the old one's did.
    const setBack = new SimulatedClock();
    setBack.set(h.clock.now() - 2 * HOUR);
    await h.restart(setBack);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    h.clock.increment(STALL_MS);
    await settle(h);
    expect(h.fleet.view('w1')!.stage, 'the stall was pushed two hours out').toBe('running.stalled');
  });

  it('a restart with the clock unchanged keeps the original deadline exactly', async () => {
    h = await harness.start();
    await toWorking(h, 'w1');
    const stallAt = h.fleet.view('w1')!.stallAt!;
    h.clock.increment(STALL_MS / 2);
    await h.restart();
    await settle(h);
    expect(h.fleet.view('w1')!.stallAt).toBe(stallAt);
    h.clock.increment(stallAt - h.clock.now() - 1);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    h.clock.increment(1);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });
});
