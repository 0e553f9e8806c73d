/**
 * A readable screen that stays "could not tell" (state unknown: no box, dialog or spinner the
 * reader knows) for longer than its bound is a condition of its own, `unclassified`, that wakes
 * `hand wait --until blocked|any` with the screen's last lines — instead of reading as work for
 * the whole stall time while a dialog the reader cannot see may be waiting.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { settle, toWorking, type Harness, startHarness, advance } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { UNCLASSIFIED_MS } from '../../machines/worker.constants.ts';
import { conditionOf, meets, waitForWorker } from '../../actors/wait-report.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

let h: Harness;
afterEach(async () => { await h?.fleet.shutdown(); });

const unknown = (fingerprint: string) => reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint, lastActivity: 'some panel | nobody knows' });

describe('could-not-tell past its bound wakes a person', () => {
  it('an unclassified readable screen becomes running.unclassified after the bound, not before', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    h.host.show(pane, unknown('f-odd'));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
    await advance(h, UNCLASSIFIED_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
    await advance(h, 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    expect(conditionOf(h.fleet.view('w1')!)).toBe('unclassified');
  });

  it('changing unclassified screens do not restart the bound; a classified one ends the spell', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    h.host.show(pane, unknown('f-a'));
    await settle(h);
    await advance(h, UNCLASSIFIED_MS / 2);
    h.host.show(pane, unknown('f-b'));
    await settle(h);
    await advance(h, UNCLASSIFIED_MS / 2);
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    h.host.show(pane, unknown('f-c'));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.unclassified');
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-work-2' }));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    // a new spell starts a new bound
    h.host.show(pane, unknown('f-d'));
    await settle(h);
    await advance(h, UNCLASSIFIED_MS - 1);
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
  });

  it('an unreadable screen is blind, never unclassified (three-valued: not a reading at all)', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    h.host.show(pane, { ...UNREADABLE_READING });
    await settle(h);
    await advance(h, 10 * UNCLASSIFIED_MS);
    expect(h.fleet.view('w1')!.stage).toBe('running.blind');
  });

  it('hand wait --until blocked wakes on it and reports the last lines; --until settled does not count it', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    const waiting = waitForWorker(h.fleet, 'w1', 'blocked', 60 * 60_000, { now: () => h.clock.now() });
    h.host.show(pane, unknown('f-odd'));
    await settle(h);
    await advance(h, UNCLASSIFIED_MS);
    const report = await waiting;
    expect([report.reason, report.met, report.readable]).toEqual(['unclassified', true, true]);
    expect(report.lastActivity).toBe('some panel | nobody knows');
    expect(meets('unclassified', 'any')).toBe(true);
    expect(meets('unclassified', 'settled')).toBe(false);
  });
});
