/**
 * Rule: `hand send` into a settled worker answers once the worker shows it took the prompt, and
 * a report re-check inside settled is not that. The Enter empties the box before the agent
 * draws its spinner; that idle, changed screen sends a settled worker to `settled.checking` and
 * back. `hand send` accepted the blip as "took it", so a `hand wait --until settled` right after
 * returned on the finished turn while the new one ran, and the `hand stop` that followed typed
 * /exit into a busy agent (the in-process daemon test's stop reached gone with exitCode null).
 */
import { describe, it, expect } from 'vitest';
import { settle, showTurnEnd, toWorking, type Harness, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { tookThePrompt } from '../../actors/took-the-prompt.ts';
import { makeHandlers, type HandlerDeps } from '../../daemon/fleet/handlers.ts';
import type { CallContext } from '../../contract/protocol.ts';

let h: Harness;
const harness = useHarness();

describe('a send is confirmed by the new turn, not a report re-check', () => {
  it('the box emptied by the Enter (idle, changed) is the old turn; the spinner is the new one', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await showTurnEnd(h, pane);
    expect(h.fleet.view('w1')!.condition).toBe('settled');

    const seen: string[] = [];
    const took = waitFor(h.fleet, 'w1', tookThePrompt, { timeoutMs: 60_000, fresh: true, onView: (v) => seen.push(`${v.stage}/${v.condition}`) });
    await h.fleet.send('w1', 'Say done.');
    // The Enter empties the box: idle, a new fingerprint, no spinner yet.
    await show(h, pane, reading({ fingerprint: 'f-box-emptied' }));
    expect(seen.some((s) => s.startsWith('settled.checking')), `views: ${seen.join(' → ')}`).toBe(true);
    let resolved = false;
    void took.then(() => { resolved = true; });
    await settle(h);
    expect(resolved, `accepted the re-check of the finished turn; views: ${seen.join(' → ')}`).toBe(false);
    // The agent draws its spinner: that is the prompt taken.
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-new-turn' }));
    const outcome = await took;
    expect(outcome.by).toBe('accepted');
    expect(outcome.view!.stage).toBe('running.working');
  });

  it('a send that lands while the worker re-checks its report (a key just changed the box) still waits for the new turn', async () => {
    // The report check is held open: the worker sits in settled.checking, as it does for a moment
    // after any idle screen change (a key typed and erased right before the send).
    let releaseCheck: (() => void) | null = null;
    h = harness.make({ ports: { reportExists: () => new Promise<boolean>((r) => { releaseCheck = () => r(false); }) } });
    await h.fleet.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, reading({ fingerprint: 'f-idle2' }));
    h.clock.increment(60_000);
    await settle(h);
    releaseCheck!();
    await settle(h);
    expect(h.fleet.view('w1')!.condition).toBe('settled');
    await show(h, pane, reading({ fingerprint: 'f-backspace' }));
    expect(h.fleet.view('w1')!.stage).toBe('settled.checking');

    const handlers = makeHandlers({ fleet: h.fleet, store: h.store } as unknown as HandlerDeps);
    const ctx = { progress: () => {}, signal: new AbortController().signal } as CallContext;
    let answered: Record<string, unknown> | null = null;
    const sending = handlers.send!({ id: 'w1', text: 'Say done.' }, ctx).then((r) => { answered = r as unknown as Record<string, unknown>; });
    await settle(h);
    expect(answered, 'send answered before the worker showed the new turn').toBeNull();
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-new-turn' }));
    await sending;
    expect(answered).toMatchObject({ sent: true, stage: 'running.working', confirmed: true });
  });
});
