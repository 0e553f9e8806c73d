import { describe, it, expect, afterEach } from 'vitest';
import { settle, toWorking, STALL_MS, type Harness, startHarness, advance } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

const MIN = 60_000;
let h: Harness;
afterEach(async () => { await h?.fleet.shutdown(); });

describe('stall detection on a simulated clock', () => {
  it('stalls only after stallMs of an unchanged readable screen', async () => {
    h = await startHarness();
    await toWorking(h, 'w1');
    await advance(h, STALL_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });

  it('a changed screen restarts the quiet time, and a repaint of the same screen does not', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    await advance(h, 15 * MIN);
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-progress' }));
    await settle(h);
    await advance(h, 15 * MIN);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-progress' }));
    await settle(h);
    await advance(h, 5 * MIN);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
    // progress after a stall takes the worker back to working
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-more' }));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
  });

  it('an unreadable screen never becomes a stall, however long it lasts', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    h.host.show(pane, { ...UNREADABLE_READING });
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
    await advance(h, 10 * STALL_MS);
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
    expect(h.fleet.view('w1')!.readable).toBe(false);
  });

  it('a blind spell does not move the change time: the same screen afterwards stalls at the original deadline', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    const stallAt = h.fleet.view('w1')!.stallAt!;
    await advance(h, 5 * MIN);
    h.host.show(pane, { ...UNREADABLE_READING });
    await settle(h);
    await advance(h, 10 * MIN);
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-work' }));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(h.fleet.view('w1')!.stallAt).toBe(stallAt);
    await advance(h, stallAt - h.clock.now());
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });

  it('a restore in the middle keeps the original absolute deadline', async () => {
    h = await startHarness();
    await toWorking(h, 'w1');
    const stallAt = h.fleet.view('w1')!.stallAt!;
    await advance(h, 10 * MIN);
    const res = await h.restart();
    await settle(h);
    expect(res).toEqual({ restored: ['w1'], skipped: [] });
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(h.fleet.view('w1')!.stallAt).toBe(stallAt);
    await advance(h, stallAt - h.clock.now() - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });
});
