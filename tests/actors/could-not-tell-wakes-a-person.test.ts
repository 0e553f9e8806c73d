/**
 * A readable screen that stays "could not tell" (state unknown: no box, dialog or spinner the
 * reader knows) for longer than its bound is a condition of its own, `unclassified`, that wakes
 * `hand wait --until blocked|any` with the screen's last lines — instead of reading as work for
 * the whole stall time while a dialog the reader cannot see may be waiting.
 */
import { describe, it, expect } from 'vitest';
import { advance, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { UNCLASSIFIED_MS } from '../../machines/worker.constants.ts';
import { conditionOf, meets, waitForWorker } from '../../actors/wait-report.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

const harness = useHarness();

const unknown = (fingerprint: string) => reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint, lastActivity: 'some panel | nobody knows' });

describe('could-not-tell past its bound wakes a person', () => {
  it('an unclassified readable screen becomes running.unclassified after the bound, not before', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, unknown('f-odd'));
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
    await advance(h, UNCLASSIFIED_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    expect(conditionOf(h.fleet.view('w1')!)).toBe('unclassified');
  });

  it('changing unclassified screens do not restart the bound; a classified one ends the spell', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, unknown('f-a'));
    await advance(h, UNCLASSIFIED_MS / 2);
    await show(h, pane, unknown('f-b'));
    await advance(h, UNCLASSIFIED_MS / 2);
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    await show(h, pane, unknown('f-c'));
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-work-2' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    // a new spell starts a new bound
    await show(h, pane, unknown('f-d'));
    await advance(h, UNCLASSIFIED_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
  });

  it('an unreadable screen is blind, never unclassified (three-valued: not a reading at all)', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, { ...UNREADABLE_READING });
    await advance(h, 10 * UNCLASSIFIED_MS);
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
  });

  it('hand wait --until blocked wakes on it and reports the last lines; --until settled does not count it', async () => {
    const { h, pane } = await harness.working('w1');
    const waiting = waitForWorker(h.fleet, 'w1', 'blocked', 60 * 60_000, { now: () => h.clock.now() });
    await show(h, pane, unknown('f-odd'));
    await advance(h, UNCLASSIFIED_MS);
    const report = await waiting;
    expect([report.reason, report.met, report.readable]).toEqual(['unclassified', true, true]);
    // The screen's last lines reach the waiter as the worker's words, quoted (issue 37).
    expect(report.lastActivity).toBe('worker w1 wrote: "some panel | nobody knows"');
    expect(meets('unclassified', 'any')).toBe(true);
    expect(meets('unclassified', 'settled')).toBe(false);
  });
});
