/**
 * Claude Code's hooks are a second witness beside the screen (actors/witness.ts): the screen is
 * the authority when it can tell; when it cannot (readable, state unknown) a Notification that
 * asks for permission or input makes the worker blocked with the hook's message; a lasting
 * disagreement between the two is `disputed` and wakes `hand wait`; the transcript the hooks
 * name gives the worker's token usage.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settle, toWorking, type Harness, advance, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf, waitForWorker } from '../../actors/wait-report.ts';
import { DISPUTE_MS } from '../../actors/witness.ts';
import { makeTempDir } from '../helpers/temp.ts';
import type { HookNote } from '../../contract/hook-note.ts';

let h: Harness;
const harness = useHarness();
const temps: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const t of temps.splice(0)) t.cleanup();
});

const unknown = (fingerprint: string) => reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint, lastActivity: 'a panel | nobody knows' });
const asks = (over: Partial<HookNote> = {}): HookNote => ({
  id: 'w1', event: 'Notification', at: h.clock.now(), message: 'Claude needs your permission to use Bash', notificationType: 'permission_prompt', ...over,
});
describe('hooks are a second witness beside the screen', () => {
  it('the hook decides when the screen cannot tell: a permission Notification makes the worker blocked with its message', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, unknown('f-odd'));
    expect(h.fleet.view('w1')!.condition).toBe('busy');
    const waiting = waitForWorker(h.fleet, 'w1', 'blocked', 60 * 60_000, { now: () => h.clock.now() });
    await h.fleet.hook(asks());
    await settle(h);
    const v = h.fleet.view('w1')!;
    expect([v.stage, v.condition, v.hookReason]).toEqual(['running.blocked', 'blocked', 'Claude needs your permission to use Bash']);
    const report = await waiting;
    // The hook's message is the worker's words: quoted and attributed on the wire (issue 37).
    expect([report.reason, report.met, report.blockedReason]).toEqual(['blocked', true, 'worker w1 wrote: "Claude needs your permission to use Bash"']);
    // Another unclassified repaint keeps the hook's word: still blocked.
    await show(h, pane, unknown('f-odd-2'));
    expect(h.fleet.view('w1')!.condition).toBe('blocked');
    // The next prompt (UserPromptSubmit) ends the word: the screen's could-not-tell is back.
    await h.fleet.hook(asks({ event: 'UserPromptSubmit', message: undefined, notificationType: undefined, at: h.clock.now() + 1 }));
    await show(h, pane, unknown('f-odd-3'));
    expect(h.fleet.view('w1')!.hookReason).toBeNull();
    expect(h.fleet.view('w1')!.condition).not.toBe('blocked');
  });

  it('the screen stays the authority when it can tell: a Stop hook does not make an unclassified screen idle, a readable one wins', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await h.fleet.hook(asks({ event: 'Stop', message: undefined, notificationType: undefined }));
    await show(h, pane, unknown('f-odd'));
    expect(h.fleet.view('w1')!.stage).toBe('running.unsure');
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-work-2' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
  });

  it('a disagreement that lasts past its grace becomes disputed (both readings) and wakes hand wait', async () => {
    h = await harness.start();
    await toWorking(h, 'w1');
    const waiting = waitForWorker(h.fleet, 'w1', 'any', 60 * 60_000, { now: () => h.clock.now() });
    await h.fleet.hook(asks());
    await settle(h);
    expect(h.fleet.view('w1')!.disputed).toBeNull();
    expect(h.fleet.view('w1')!.condition).toBe('busy'); // the screen can tell: it stays the authority
    await advance(h, DISPUTE_MS - 1);
    expect(h.fleet.view('w1')!.disputed).toBeNull();
    await advance(h, 2);
    const v = h.fleet.view('w1')!;
    expect(v.disputed).toMatchObject({ screen: 'working', hook: 'needs-input' });
    expect(conditionOf(v)).toBe('disputed');
    const report = await waiting;
    expect([report.reason, report.met]).toEqual(['disputed', true]);
  });

  it('an answered dialog is no dispute: the hook is spent once the screen showed it and moved on', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-dialog' }));
    await h.fleet.hook(asks());
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-work-3' }));
    await advance(h, 2 * DISPUTE_MS);
    expect(h.fleet.view('w1')!.disputed).toBeNull();
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
  });

  it("the transcript the hooks name gives token usage, each API message counted once", async () => {
    h = await harness.start();
    await toWorking(h, 'w1');
    const dir = makeTempDir('transcript');
    temps.push(dir);
    const path = join(dir.path, 'session.jsonl');
    const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 10 });
    writeFileSync(path, [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'secret words' } }),
      JSON.stringify({ type: 'assistant', message: { id: 'msg_1', usage: usage(3, 40) } }),
      JSON.stringify({ type: 'assistant', message: { id: 'msg_1', usage: usage(3, 40) } }), // second content block, same message
      JSON.stringify({ type: 'assistant', message: { id: 'msg_2', usage: usage(5, 7) } }),
      'not json',
    ].join('\n'));
    await h.fleet.hook(asks({ event: 'Stop', message: undefined, notificationType: undefined, transcriptPath: path }));
    for (let i = 0; i < 50 && !h.fleet.view('w1')!.tokens; i++) await new Promise((r) => setTimeout(r, 10));
    expect(h.fleet.view('w1')!.tokens).toEqual({ input: 8, output: 47, cacheRead: 200, cacheCreation: 20, costUSD: null, messages: 2 });
  });

  it('a note older than the word in hand never overrides it (a drained queue after live hooks)', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, unknown('f-odd'));
    await h.fleet.hook(asks());
    await h.fleet.hook(asks({ event: 'Stop', message: undefined, notificationType: undefined, at: h.clock.now() - 1000 }));
    await settle(h);
    expect(h.fleet.view('w1')!.condition).toBe('blocked');
  });
});

describe('a hook note that arrives late', () => {
  it('finds its dialog already answered: spent, never disputed', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    const ranAt = h.clock.now();
    await show(h, pane, reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-dialog' }));
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-work-4' }));
    await advance(h, 1000);
    await h.fleet.hook(asks({ at: ranAt }));
    await advance(h, 2 * DISPUTE_MS);
    expect(h.fleet.view('w1')!.disputed).toBeNull();
  });
});
