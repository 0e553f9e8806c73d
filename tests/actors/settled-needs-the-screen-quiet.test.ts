/**
 * Rule (issue 21, item 4): settled needs the screen quiet for SETTLE_QUIET_MS. A screen that
 * flipped between a finished turn and a spinner every 0.3 s read settled on 5 of 6 samples and
 * `hand wait --until settled` returned after 0.5 s.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { settle, toWorking, type Harness, startHarness } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';

let h: Harness;
afterEach(async () => { await h?.fleet.shutdown(); });
const idle = reading({ fingerprint: 'f-turn-over' });
const spinner = reading({ state: 'working', fingerprint: 'f-spinner' });

describe('settled needs the screen quiet', () => {
  it('a screen flipping between a finished turn and a spinner every 300 ms is never settled', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    const seen: Array<string | null> = [];
    for (let i = 0; i < 20; i++) {
      h.host.show(pane, i % 2 === 0 ? idle : spinner);
      await settle(h);
      h.clock.increment(300);
      await settle(h);
      seen.push(conditionOf(h.fleet.view('w1')!));
    }
    expect(seen.filter((c) => c === 'settled'), `conditions seen: ${seen.join(',')}`).toEqual([]);
  });

  it('an idle screen that holds (repaints allowed) is settled once the window has passed, not before', async () => {
    h = await startHarness();
    const pane = await toWorking(h, 'w1');
    h.host.show(pane, idle);
    await settle(h);
    h.clock.increment(SETTLE_QUIET_MS - 100);
    h.host.show(pane, idle);
    await settle(h);
    expect(conditionOf(h.fleet.view('w1')!)).toBeNull();
    h.clock.increment(100);
    await settle(h);
    expect(conditionOf(h.fleet.view('w1')!), `stage ${h.fleet.view('w1')!.stage}`).toBe('settled');
  });
});
