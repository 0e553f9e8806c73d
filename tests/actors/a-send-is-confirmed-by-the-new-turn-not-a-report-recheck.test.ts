/**
 * Rule: `hand send` into a settled worker answers once the worker shows it took the prompt, and
 * a report re-check inside settled is not that. The Enter empties the box before the agent
 * draws its spinner; that idle, changed screen sends a settled worker to `settled.checking` and
 * back. `hand send` accepted the blip as "took it", so a `hand wait --until settled` right after
 * returned on the finished turn while the new one ran, and the `hand stop` that followed typed
 * /exit into a busy agent (the in-process daemon test's stop reached gone with exitCode null).
 */
import { describe, it, expect, afterEach } from 'vitest';
import { makeHarness, settle, showTurnEnd, toWorking, type Harness } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { tookThePrompt } from '../../actors/took-the-prompt.ts';

let h: Harness;
afterEach(async () => { await h?.fleet.shutdown(); });

describe('a send is confirmed by the new turn, not a report re-check', () => {
  it('the box emptied by the Enter (idle, changed) is the old turn; the spinner is the new one', async () => {
    h = makeHarness();
    await h.fleet.start();
    const pane = await toWorking(h, 'w1');
    await showTurnEnd(h, pane);
    expect(h.fleet.view('w1')!.condition).toBe('settled');

    const seen: string[] = [];
    const took = waitFor(h.fleet, 'w1', tookThePrompt, { timeoutMs: 60_000, fresh: true, onView: (v) => seen.push(`${v.stage}/${v.condition}`) });
    await h.fleet.send('w1', 'Say done.');
    // The Enter empties the box: idle, a new fingerprint, no spinner yet.
    h.host.show(pane, reading({ fingerprint: 'f-box-emptied' }));
    await settle(h);
    expect(seen.some((s) => s.startsWith('settled.checking')), `views: ${seen.join(' → ')}`).toBe(true);
    let resolved = false;
    void took.then(() => { resolved = true; });
    await settle(h);
    expect(resolved, `accepted the re-check of the finished turn; views: ${seen.join(' → ')}`).toBe(false);
    // The agent draws its spinner: that is the prompt taken.
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-new-turn' }));
    await settle(h);
    const outcome = await took;
    expect(outcome.by).toBe('accepted');
    expect(outcome.view!.stage).toBe('running.working');
  });
});
