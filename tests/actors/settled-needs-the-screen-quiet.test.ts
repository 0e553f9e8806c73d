/**
 * Rule (issue 21, item 4): settled needs the screen quiet for SETTLE_QUIET_MS. A screen that
 * flipped between a finished turn and a spinner every 0.3 s read settled on 5 of 6 samples and
 * `hand wait --until settled` returned after 0.5 s.
 */
import { describe, it, expect } from 'vitest';
import { settle, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';

const harness = useHarness();
const idle = reading({ fingerprint: 'f-turn-over' });
const spinner = reading({ state: 'working', fingerprint: 'f-spinner' });

describe('settled needs the screen quiet', () => {
  it('a screen flipping between a finished turn and a spinner every 300 ms is never settled', async () => {
    const { h, pane } = await harness.working('w1');
    const seen: Array<string | null> = [];
    for (let i = 0; i < 20; i++) {
      await show(h, pane, i % 2 === 0 ? idle : spinner);
      h.clock.increment(300);
      await settle(h);
      seen.push(conditionOf(h.fleet.view('w1')!));
    }
    expect(seen.filter((c) => c === 'settled'), `conditions seen: ${seen.join(',')}`).toEqual([]);
  });

  it('an idle screen that holds (repaints allowed) is settled once the window has passed, not before', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idle);
    h.clock.increment(SETTLE_QUIET_MS - 100);
    await show(h, pane, idle);
    expect(conditionOf(h.fleet.view('w1')!)).toBeNull();
    h.clock.increment(100);
    await settle(h);
    expect(conditionOf(h.fleet.view('w1')!), `stage ${h.fleet.view('w1')!.stage}`).toBe('settled');
  });
});
