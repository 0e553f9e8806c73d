/**
 * Rule: no quiet time runs from a reading of a pane that was still pouring. tmux hushes a pane
 * that keeps drawing and reads it at most every POURING_READ_MS (io/terminal/tmux/pour-hush.ts);
 * the settle window was as long. Under load a Codex worker whose screen looked idle for one read
 * while it drew its next frames was settled before the next read came (`hand wait --until
 * settled` returned met: false with "Working (0s" on its screen). A reading the host marks
 * `pouring` keeps the worker finishing; the first reading after the pour starts the window.
 */
import { describe, expect, it } from 'vitest';
import { advance, show, useHarness } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';

const harness = useHarness();
const idle = reading({ fingerprint: 'f-turn-over' });
const idlePouring = reading({ fingerprint: 'f-turn-over', pouring: true });

describe('a screen read while its pane pours never starts the quiet time', () => {
  it('one idle reading of a pouring pane, then no read for three windows: not settled; the quiet read after it settles a window later', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idlePouring);
    await advance(h, 3 * SETTLE_QUIET_MS);
    expect(conditionOf(h.fleet.view('w1')!), `stage ${h.fleet.view('w1')!.stage}`).toBeNull();
    await show(h, pane, idle);
    await advance(h, SETTLE_QUIET_MS - 100);
    expect(conditionOf(h.fleet.view('w1')!), 'the window runs from the first reading after the pour').toBeNull();
    await advance(h, 100);
    expect(conditionOf(h.fleet.view('w1')!), `stage ${h.fleet.view('w1')!.stage}`).toBe('settled');
  });

  it('the same idle screen read while pouring every 400 ms for 4 s is never settled', async () => {
    const { h, pane } = await harness.working('w1');
    const seen: Array<string | null> = [];
    for (let i = 0; i < 10; i++) {
      await show(h, pane, i % 2 === 0 ? idlePouring : { ...idlePouring, lastActivity: 'idle, redrawn' });
      await advance(h, 400);
      seen.push(conditionOf(h.fleet.view('w1')!));
    }
    expect(seen.filter((c) => c === 'settled'), `conditions seen: ${seen.join(',')}`).toEqual([]);
  });

  it('a pane that never poured settles as before: a window after its idle screen', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idle);
    await advance(h, SETTLE_QUIET_MS);
    expect(conditionOf(h.fleet.view('w1')!)).toBe('settled');
  });
});
