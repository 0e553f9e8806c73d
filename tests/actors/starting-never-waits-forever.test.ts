/**
 * Rule (issue 21, item 4): `starting` and every state that waits for the agent arm a deadline.
 * Text a person typed into the pane during start-up left the worker `starting.waiting`,
 * condition busy, forever: nothing stalled, nothing woke, no problem was noted. Now the first
 * prompt's due time blocks it with the box's text quoted (a `hand wait --until blocked` wakes),
 * and a start screen that never changes is a stall.
 */
import { describe, it, expect } from 'vitest';
import { dispatchBrief, settle, STALL_MS, type Harness, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf, meets } from '../../actors/wait-report.ts';
import { STARTUP_SETTLE_MS } from '../../machines/worker.machine.ts';

let h: Harness;
const harness = useHarness();

async function started(): Promise<string> {
  h = await harness.start();
  const v = await dispatchBrief(h, 'w1', 'Read the brief.');
  return v.paneId!;
}
const view = () => h.fleet.view('w1')!;

describe('starting never waits forever', () => {
  it('text in the box when the first prompt is due wakes a person, the text quoted, and nothing is typed', async () => {
    const pane = await started();
    await show(h, pane, reading({ fingerprint: 'f-typed', promptBox: 'who typed this', promptBoxKind: 'typed' }));
    expect(conditionOf(view()), 'woke before the first prompt was due').toBeNull();
    h.clock.increment(STARTUP_SETTLE_MS);
    await settle(h);
    const reason = conditionOf(view());
    expect(reason, `stage ${view().stage}`).toBe('blocked');
    expect(meets(reason!, 'blocked') && meets(reason!, 'any')).toBe(true);
    expect(view().problem).toContain('"who typed this"');
    expect(h.host.sent).toEqual([]);
  });

  it('once the person empties the box, the first prompt goes out after the start screen settles', async () => {
    const pane = await started();
    await show(h, pane, reading({ fingerprint: 'f-typed', promptBox: 'who typed this', promptBoxKind: 'typed' }));
    h.clock.increment(STARTUP_SETTLE_MS);
    await settle(h);
    await show(h, pane, reading({ fingerprint: 'f-empty' }));
    expect(view().problem).toBeNull();
    h.clock.increment(STARTUP_SETTLE_MS);
    await settle(h);
    expect(h.host.sent.map((s) => s.text)).toEqual(['Read the brief.']);
  });

  it('a start screen that never changes is stalled after stallMs, not busy forever', async () => {
    const pane = await started();
    await show(h, pane, reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint: 'f-splash-stuck' }));
    h.clock.increment(STALL_MS - 1_000);
    await settle(h);
    expect(conditionOf(view())).toBeNull();
    h.clock.increment(2_000);
    await settle(h);
    expect(conditionOf(view()), `stage ${view().stage}`).toBe('stalled');
  });
});
