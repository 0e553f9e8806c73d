/**
 * Rule: a first prompt is never called unsubmitted on a screen that cannot be read (nor on one
 * whose box no longer holds it). Seen in full
 * runs on a loaded 2-core machine with the real OpenCode 1.18.33 (the stranger suite): our
 * 649-character prompt goes in as a bracketed paste and shows as `[Pasted ~1 lines]` (read: our
 * prompt in the box, so `unsubmitted`); OpenCode takes the Enter 1.7 s later, empties the box,
 * and blanks the whole screen while it swaps its start view for the session our Enter began.
 * The resubmit deadline fell on that blank screen (or on the emptied start view, the same
 * screen we briefed from), and "could not tell" was taken for "not submitted": briefing.blocked, `hand wait` woke on it, and the session view that followed
 * (our prompt as the transcript's first message, the composer empty) left it stuck there.
 *
 * The screens are real tmux captures of that run (tests/fixtures/opencode-first-prompt/), read by
 * the real OpenCode reader and shown to the worker in the order and at the times they came.
 */
import { describe, expect, it } from 'vitest';
import type { ScreenReading } from '../../io/screen/types.ts';
import { boxHoldsPrompt } from '../../machines/worker.guards.ts';
import { BRIEF_CONFIRM_MS, BRIEF_NOT_TAKEN_UP, RESUBMIT_AFTER_MS } from '../../machines/worker.machine.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { capturedOpencodeScreen, opencodeFirstPromptScreens } from './helpers/opencode-first-prompt-screens.ts';
import { advance, dispatchBrief, show, showStartScreen, type Harness, useHarness } from './helpers/harness.ts';

const PROMPT = 'Read the brief at /tmp/kh-test-32291b-repro-oc-hcXtOZ/state/workers/oc0/brief.md in full before you start, then do the work it describes.';
const screens = opencodeFirstPromptScreens();

let h: Harness;
const harness = useHarness();
const stage = () => h.fleet.view('w1')!.stage;
const automaticEnters = () => h.host.sent.filter((s) => s.origin === 'automatic' && s.kind === 'key' && s.key === 'enter');

/** Briefed, and the pasted prompt read in the box before OpenCode took the Enter: unsubmitted. */
async function pastedAndUnsubmitted(): Promise<string> {
  h = await harness.start();
  const v = await dispatchBrief(h, 'w1', PROMPT);
  const pane = v.paneId!;
  await showStartScreen(h, pane, capturedOpencodeScreen('tmux-enter-taken'));
  expect(stage()).toBe('briefing.confirming');
  await show(h, pane, screens.pasted);
  expect(stage()).toBe('briefing.unsubmitted');
  return pane;
}

describe('the captured screens read as what they are', () => {
  it('the pasted prompt is ours in the box; the view between is could-not-tell; the session view holds our prompt in its transcript, not in its box, a turn still pending', () => {
    expect(boxHoldsPrompt(screens.pasted, PROMPT)).toBe(true);
    expect(screens.enterTaken).toMatchObject({ readable: true, state: 'idle', promptBox: '' });
    expect(screens.betweenViews).toMatchObject({ readable: false, state: 'unknown', promptBox: null });
    // What the failure report read as "the whole prompt still inside its input box, then blank rows":
    // the transcript's message panel at the top, the empty composer at the bottom.
    // No spinner yet, but our prompt is the transcript's last message: a turn still pending (working).
    expect(screens.sessionOpened).toMatchObject({ readable: true, state: 'working', promptBox: '', awaitingInput: false });
    expect(boxHoldsPrompt(screens.sessionOpened, PROMPT)).toBe(false);
    expect(screens.working).toMatchObject({ readable: true, state: 'working' });
  });
});

/** The resubmit time has passed and the worker still waits for a sign: no problem said, no Enter pressed by itself. */
function expectStillConfirming(): void {
  expect(stage()).toBe('briefing.confirming');
  expect(h.fleet.view('w1')!.problem).toBe(null);
  expect(automaticEnters()).toHaveLength(0);
}

describe('a first prompt is never called unsubmitted on a screen that cannot be read', () => {
  it('the resubmit time falling on the blank between two views keeps confirming; the session view then shows the turn taken', async () => {
    const pane = await pastedAndUnsubmitted();
    // As in the run: OpenCode empties its box 1.7 s later and blanks the screen 0.2 s after
    // that; under load the daemon's next read of the pane is the blank one.
    await advance(h, 1_700);
    await show(h, pane, screens.betweenViews);
    await advance(h, RESUBMIT_AFTER_MS - 1_700);
    // Could not tell is not "not submitted", and nothing is pressed on a screen nobody could read.
    expectStillConfirming();
    expect(conditionOf(h.fleet.view('w1')!)).toBe(null);
    await show(h, pane, screens.sessionOpened);
    expect(stage()).toBe('running.working');
    await show(h, pane, screens.working);
    expect(stage()).toBe('running.working');
  });

  it('the box read empty again on the very screen we briefed from is no lost Enter either: back to confirming', async () => {
    const pane = await pastedAndUnsubmitted();
    // The same start view as before the paste (its fingerprint too): the prompt left the box.
    await show(h, pane, screens.enterTaken);
    await advance(h, RESUBMIT_AFTER_MS);
    expectStillConfirming();
    await show(h, pane, screens.betweenViews);
    await show(h, pane, screens.working);
    expect(stage()).toBe('running.working');
  });

  it('our prompt seen in the box again once the screen can be read is pressed once more', async () => {
    const pane = await pastedAndUnsubmitted();
    await show(h, pane, screens.betweenViews);
    await advance(h, RESUBMIT_AFTER_MS);
    expectStillConfirming();
    h.host.onSend = (p, rec) => {
      if (rec.key === 'enter') queueMicrotask(() => h.host.show(p, screens.working));
    };
    await show(h, pane, { ...screens.pasted, fingerprint: `${screens.pasted.fingerprint}-again` });
    expect(stage()).toBe('briefing.unsubmitted');
    await advance(h, RESUBMIT_AFTER_MS);
    expect(automaticEnters()).toHaveLength(1);
    expect(stage()).toBe('running.working');
  });

  it('a screen that stays unreadable is still bounded: blocked at the confirmation deadline, as not taken up', async () => {
    const pane = await pastedAndUnsubmitted();
    await show(h, pane, screens.betweenViews);
    await advance(h, RESUBMIT_AFTER_MS);
    expectStillConfirming();
    await advance(h, BRIEF_CONFIRM_MS);
    expect(stage()).toBe('briefing.blocked');
    expect(h.fleet.view('w1')!.problem).toBe(BRIEF_NOT_TAKEN_UP);
    expect(automaticEnters()).toHaveLength(0);
  });

});
