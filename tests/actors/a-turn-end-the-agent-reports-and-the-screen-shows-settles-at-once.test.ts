/**
 * Rule (issue 39, item 4): where the agent's own hook has reported the turn's end (Claude Code's
 * Stop, Gemini CLI's AfterAgent, Codex's notify as `hand hook Stop`) AND the live screen agrees —
 * the box back, no spinner, no dialog — the worker settles at once instead of waiting out the quiet
 * window. The quiet window stays for every moment without that word: no earlier false "finished".
 */
import { describe, it, expect } from 'vitest';
import { settle, useHarness, show, advance } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';
import type { HookNote } from '../../contract/hook-note.ts';
import type { Harness } from './helpers/harness.ts';

const harness = useHarness();
const idle = reading({ fingerprint: 'f-turn-over' });
const spinner = reading({ state: 'working', fingerprint: 'f-spinner' });
const stop = (h: Harness, over: Partial<HookNote> = {}): HookNote => ({ id: 'w1', event: 'Stop', at: h.clock.now(), ...over });
const stage = (h: Harness) => h.fleet.view('w1')!.stage;
const condition = (h: Harness) => conditionOf(h.fleet.view('w1')!);

/** A working worker whose Stop word and idle screen agree: settled at once. */
async function settledByTheWord() {
  const { h, pane } = await harness.working('w1');
  await h.fleet.hook(stop(h));
  await show(h, pane, idle);
  expect(condition(h)).toBe('settled');
  return { h, pane };
}

describe('a turn end the agent reports and the screen shows settles at once', () => {
  it('hook + agreeing screen settles without the quiet window: the Stop first, then the idle screen', async () => {
    const { h, pane } = await harness.working('w1');
    // Claude Code keeps its spinner while the Stop hook runs (`running Stop hook`): the word comes first.
    await h.fleet.hook(stop(h));
    await settle(h);
    expect(stage(h)).toBe('running.working');
    await show(h, pane, idle);
    expect(condition(h), `stage ${stage(h)}`).toBe('settled');
  });

  it('hook + agreeing screen settles without the quiet window: the idle screen first, then the Stop', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idle);
    expect(stage(h)).toBe('running.finishing');
    h.clock.increment(10);
    await h.fleet.hook(stop(h));
    await settle(h);
    expect(condition(h), `stage ${stage(h)}`).toBe('settled');
  });

  it('a Stop hook with a spinner still on screen does not settle', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h));
    await show(h, pane, spinner);
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(stage(h)).toBe('running.working');
    expect(condition(h)).toBeNull();
  });

  it('a Stop hook with a dialog on screen does not settle', async () => {
    const { h, pane } = await harness.working('w1');
    const dialog = reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-dialog' });
    await show(h, pane, dialog);
    await h.fleet.hook(stop(h));
    await settle(h);
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(condition(h)).toBe('blocked');
  });

  it('without the word the quiet window stays: an idle screen alone is settled only once it has held', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idle);
    expect(condition(h)).toBeNull();
    await advance(h, SETTLE_QUIET_MS - 1);
    expect(condition(h)).toBeNull();
    await advance(h, 1);
    expect(condition(h)).toBe('settled');
  });

  it('a Stop from before the last input speaks of the earlier turn: the next turn waits out the quiet window', async () => {
    const { h, pane } = await settledByTheWord();
    h.clock.increment(5);
    await h.fleet.send('w1', 'and now the tests');
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-next-turn' }));
    expect(stage(h)).toBe('running.working');
    // The same finished-looking screen flashes up mid-turn: no word is fresh for it.
    await show(h, pane, reading({ fingerprint: 'f-next-idle' }));
    expect(stage(h)).toBe('running.finishing');
    // The old note delivered late (queued) changes nothing either.
    await h.fleet.hook(stop(h, { at: h.clock.now() - 5 }));
    await settle(h);
    expect(stage(h)).toBe('running.finishing');
  });

  it('once the screen has moved on from the end the word agreed with, the word no longer counts', async () => {
    const { h, pane } = await settledByTheWord();
    // A person typed a prompt into the pane themselves (no input of ours, no hook): new work shows.
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-their-turn' }));
    expect(stage(h)).toBe('running.working');
    await show(h, pane, reading({ fingerprint: 'f-their-turn-idle' }));
    expect(stage(h)).toBe('running.finishing');
  });

  it('a new turn the hooks announce (UserPromptSubmit) ends the word before its screen agrees', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h));
    h.clock.increment(1);
    await h.fleet.hook(stop(h, { event: 'UserPromptSubmit' }));
    await show(h, pane, idle);
    expect(stage(h)).toBe('running.finishing');
  });

  it('a screen that cannot tell whether the turn is over (box back, no status line) reads idle by the word, and settles', async () => {
    const { h, pane } = await harness.working('w1');
    // Codex 0.150.0: a finished turn and a streaming one are the same screen; the reader says so.
    const undecided = reading({ state: 'unknown', fingerprint: 'f-undecided' });
    await show(h, pane, undecided);
    expect(stage(h)).toBe('running.unsure');
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(stage(h)).toBe('running.unsure');
    await h.fleet.hook(stop(h));
    await settle(h);
    expect(condition(h), `stage ${stage(h)}`).toBe('settled');
    expect(h.fleet.view('w1')!.state).toBe('idle');
  });

  it('a screen that cannot tell and shows no box is not made idle by the word', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h));
    await show(h, pane, reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint: 'f-no-box' }));
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(stage(h)).toBe('running.unsure');
  });
});
