import { describe, it, expect } from 'vitest';
import { settle, STALL_MS, advance, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

const MIN = 60_000;
const harness = useHarness();

describe('stall detection on a simulated clock', () => {
  it('stalls only after stallMs of an unchanged readable screen', async () => {
    const { h } = await harness.working('w1');
    await advance(h, STALL_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });

  it('a changed screen restarts the quiet time, and a repaint of the same screen does not', async () => {
    const { h, pane } = await harness.working('w1');
    await advance(h, 15 * MIN);
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-progress' }));
    await advance(h, 15 * MIN);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-progress' }));
    await advance(h, 5 * MIN);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
    // progress after a stall takes the worker back to working
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-more' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
  });

  it('an unreadable screen never becomes a stall, however long it lasts', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, { ...UNREADABLE_READING });
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
    await advance(h, 10 * STALL_MS);
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
    expect(h.fleet.view('w1')!.readable).toBe(false);
  });

  it('a blind spell does not move the change time: the same screen afterwards stalls at the original deadline', async () => {
    const { h, pane } = await harness.working('w1');
    const stallAt = h.fleet.view('w1')!.stallAt!;
    await advance(h, 5 * MIN);
    await show(h, pane, { ...UNREADABLE_READING });
    await advance(h, 10 * MIN);
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-work' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(h.fleet.view('w1')!.stallAt).toBe(stallAt);
    await advance(h, stallAt - h.clock.now());
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });

  it('a restore in the middle keeps the original absolute deadline', async () => {
    const { h } = await harness.working('w1');
    const stallAt = h.fleet.view('w1')!.stallAt!;
    await advance(h, 10 * MIN);
    const res = await h.restart();
    await settle(h);
    expect(res).toMatchObject({ restored: ['w1'], skipped: [] });
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(h.fleet.view('w1')!.stallAt).toBe(stallAt);
    await advance(h, stallAt - h.clock.now() - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.stalled');
  });
});
