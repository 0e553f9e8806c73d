/**
 * Rule: a worker is never reported settled while the first prompt sits unsubmitted in its box.
 * Seen end to end on a loaded machine: the brief was typed, its Enter was lost, and the worker
 * read as settled with our whole prompt still in the box.
 */
import { describe, it, expect } from 'vitest';
import { dispatchBrief, settle, showStartScreen, type Harness, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf, waitForWorker } from '../../actors/wait-report.ts';
import {
  MAX_BRIEF_RETRIES, RESUBMIT_AFTER_MS, PROMPT_NOT_SUBMITTED, BRIEF_QUIET_MS, BRIEF_CONFIRM_MS, BRIEF_NOT_TAKEN_UP,
} from '../../machines/worker.machine.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

const PROMPT = 'Read /data/w1/brief.md and follow it; write your report to /data/w1/report.md when done.';
/** How the box shows it: wrapped over rows, a word split at the edge. */
const WRAPPED = 'Read /data/w1/brief.md and follow it; write your report to /da\nta/w1/report.md when done.';

let h: Harness;
const harness = useHarness();

async function toConfirming(): Promise<string> {
  h = await harness.start();
  const v = await dispatchBrief(h, 'w1', PROMPT);
  await showStartScreen(h, v.paneId!);
  expect(h.fleet.view('w1')!.stage).toBe('briefing.confirming');
  return v.paneId!;
}
const automaticEnters = () => h.host.sent.filter((s) => s.origin === 'automatic' && s.kind === 'key' && s.key === 'enter');
const stuck = (fingerprint = 'f-typed') => reading({ fingerprint, promptBox: WRAPPED, promptBoxKind: 'typed' });

describe('a worker is never reported settled while the first prompt sits unsubmitted in its box', () => {
  it('our prompt left in the box is not settled; after the grace time Enter is pressed once more, then work confirms', async () => {
    const pane = await toConfirming();
    await show(h, pane, stuck());
    let v = h.fleet.view('w1')!;
    expect(v.stage).toBe('briefing.unsubmitted');
    expect(conditionOf(v)).toBe(null);
    // A repaint with our text still there does not move the deadline.
    h.clock.increment(RESUBMIT_AFTER_MS - 1);
    await show(h, pane, stuck('f-typed-repaint'));
    expect(automaticEnters()).toHaveLength(0);
    // This time the agent takes the Enter and starts work.
    h.host.onSend = (p, rec) => {
      if (rec.key === 'enter') queueMicrotask(() => h.host.show(p, reading({ state: 'working', fingerprint: 'f-w1' })));
    };
    h.clock.increment(1);
    await settle(h);
    expect(automaticEnters()).toHaveLength(1);
    expect(automaticEnters()[0]!.reading.promptBox).toBe(WRAPPED);
    v = h.fleet.view('w1')!;
    expect(v.stage).toBe('running.working');
    expect(v.problem).toBe(null);
  });

  it(`after ${MAX_BRIEF_RETRIES} lost Enters the worker is briefing.blocked with a problem, which hand wait reads as blocked`, async () => {
    const pane = await toConfirming();
    for (let i = 0; i < MAX_BRIEF_RETRIES + 2; i++) {
      await show(h, pane, stuck(`f-typed-${i}`));
      h.clock.increment(RESUBMIT_AFTER_MS);
      await settle(h);
    }
    const v = h.fleet.view('w1')!;
    expect(automaticEnters()).toHaveLength(MAX_BRIEF_RETRIES);
    expect(v.stage).toBe('briefing.blocked');
    expect(v.problem).toBe(PROMPT_NOT_SUBMITTED);
    expect(conditionOf(v)).toBe('blocked');
  });

  it('text in the box that is not ours is never pressed: briefing.blocked, and the person may act on it', async () => {
    const pane = await toConfirming();
    await show(h, pane, reading({ fingerprint: 'f-other', promptBox: 'fix the login bug', promptBoxKind: 'typed' }));
    h.clock.increment(10 * RESUBMIT_AFTER_MS);
    await settle(h);
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('briefing.blocked');
    expect(v.problem).toBe(PROMPT_NOT_SUBMITTED);
    expect(automaticEnters()).toHaveLength(0);
    // The box guard still protects the person's way out; the override submits by hand.
    await expect(h.fleet.key('w1', 'enter')).rejects.toMatchObject({ code: 'prompt-box-not-empty' });
    h.host.origin = 'person';
    await h.fleet.key('w1', 'enter', { allowNonEmptyBox: true });
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-w1' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
  });

  it('settled without ever seeing work only when the box is shown empty (no box on screen proves nothing)', async () => {
    const pane = await toConfirming();
    await show(h, pane, reading({ fingerprint: 'f-after', promptBox: null, promptBoxKind: null }));
    h.clock.increment(10 * BRIEF_QUIET_MS);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('briefing.confirming');
    await show(h, pane, reading({ fingerprint: 'f-after2' }));
    expect(h.fleet.view('w1')!.stage).toBe('briefing.quieting');
    h.clock.increment(BRIEF_QUIET_MS);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('settled.unconfirmed');
    expect(h.fleet.view('w1')!.promptBox).toBe('');
  });
});

/**
 * Rule: a changed idle screen with an empty box right after the brief is not a finished turn
 * until it holds still. Seen with the real Claude Code 2.1.332: it keeps redrawing its startup
 * screen, and right after Enter the box is empty with no spinner drawn yet.
 */
describe('a worker is not reported settled before its first prompt ran', () => {
  it('an idle empty-box screen followed by the spinner within the quiet period is work, never settled', async () => {
    const pane = await toConfirming();
    await show(h, pane, reading({ fingerprint: 'f-redraw' }));
    expect(h.fleet.view('w1')!.stage).toBe('briefing.quieting');
    h.clock.increment(BRIEF_QUIET_MS - 1);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('briefing.quieting');
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-w1' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(h.store.journal({ actorId: 'worker:w1' }).map((e) => e.to)).not.toContain('settled.checking');
  });

  it('every change of the idle screen starts the quiet period again; a repaint of the same screen does not', async () => {
    const pane = await toConfirming();
    await show(h, pane, reading({ fingerprint: 'f-frame1' }));
    h.clock.increment(BRIEF_QUIET_MS - 100);
    await show(h, pane, reading({ fingerprint: 'f-frame2' }));
    h.clock.increment(BRIEF_QUIET_MS - 100);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('briefing.quieting');
    await show(h, pane, reading({ fingerprint: 'f-frame2' }));
    h.clock.increment(100);
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('settled.unconfirmed');
  });

  it('a dialog during the quiet period blocks the worker instead', async () => {
    const pane = await toConfirming();
    await show(h, pane, reading({ fingerprint: 'f-redraw' }));
    await show(h, pane, reading({ state: 'blocked', awaitingInput: true, blockedReason: 'auto-mode', promptBox: null, promptBoxKind: null, fingerprint: 'f-dialog' }));
    h.clock.increment(BRIEF_QUIET_MS);
    await settle(h);
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('running.blocked');
    expect(conditionOf(v)).toBe('blocked');
  });
});

/**
 * Rule: a worker whose first prompt left the box but never showed as taken up is blocked with a
 * problem, never left in briefing.confirming. Nothing there wakes `hand wait`, and `hand status`
 * shows a stage nobody reads as trouble: the hours-long unseen wait this tool exists to prevent.
 */
describe('a first prompt that is never taken up blocks the worker instead of leaving it confirming', () => {
  const stage = () => h.fleet.view('w1')!.stage;
  /** Moves the test clock and returns the stage the worker rests in afterwards. */
  const after = async (ms: number): Promise<string> => {
    h.clock.increment(ms);
    await settle(h);
    return stage();
  };
  /** Confirming, then a changed idle screen just before the deadline: the quiet period runs across it. */
  const quietingAcrossTheDeadline = async (): Promise<string> => {
    const pane = await toConfirming();
    h.clock.increment(BRIEF_CONFIRM_MS - 100);
    await show(h, pane, reading({ fingerprint: 'f-after' }));
    expect(stage()).toBe('briefing.quieting');
    return pane;
  };

  it('a screen that never changes after the brief is briefing.blocked with its own problem once the deadline passes, and hand wait wakes', async () => {
    const pane = await toConfirming();
    const woke = waitForWorker(h.fleet, 'w1', 'blocked', 20_000, { now: () => h.clock.now() });
    // Repaints of the very screen we briefed from are no sign, and do not move the deadline.
    h.clock.increment(BRIEF_CONFIRM_MS / 2);
    await show(h, pane, reading());
    expect(await after(BRIEF_CONFIRM_MS / 2 - 1)).toBe('briefing.confirming');
    expect(conditionOf(h.fleet.view('w1')!)).toBe(null);
    expect(await after(1)).toBe('briefing.blocked');
    expect(h.fleet.view('w1')!.problem).toBe(BRIEF_NOT_TAKEN_UP);
    expect(BRIEF_NOT_TAKEN_UP).not.toBe(PROMPT_NOT_SUBMITTED);
    expect(await woke).toMatchObject({ reason: 'blocked', met: true, stage: 'briefing.blocked' });
    // Nothing was pressed on the worker's behalf: a person decides what to do.
    expect(automaticEnters()).toHaveLength(0);
  });

  it('a restart while confirming keeps the original deadline', async () => {
    await toConfirming();
    h.clock.increment(BRIEF_CONFIRM_MS - 300);
    await settle(h);
    const { restored } = await h.restart();
    expect(restored).toEqual(['w1']);
    await settle(h);
    expect(stage()).toBe('briefing.confirming');
    expect(await after(299)).toBe('briefing.confirming');
    expect(await after(1)).toBe('briefing.blocked');
    expect(h.fleet.view('w1')!.problem).toBe(BRIEF_NOT_TAKEN_UP);
  });

  const later = [
    { seen: 'work', screen: reading({ state: 'working', fingerprint: 'f-w1' }), to: 'running.working' },
    { seen: 'a dialog', screen: reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-menu' }), to: 'running.blocked' },
  ];
  for (const { seen, screen, to } of later) {
    it(`${seen} seen afterwards recovers the worker (${to}) and clears the problem`, async () => {
      const pane = await toConfirming();
      expect(await after(BRIEF_CONFIRM_MS)).toBe('briefing.blocked');
      await show(h, pane, screen);
      expect(stage()).toBe(to);
      expect(h.fleet.view('w1')!.problem).toBe(null);
    });
  }

  it('a quiet period that falls back to confirming after the deadline passed blocks at once', async () => {
    const pane = await quietingAcrossTheDeadline();
    // The deadline passes while quieting: the quiet period decides first, never a false block.
    await show(h, pane, { ...UNREADABLE_READING });
    expect(await after(BRIEF_QUIET_MS)).toBe('briefing.confirming');
    // Back in confirming, the deadline re-armed at its passed time is due at once. A simulated
    // clock runs a due timer only when it is moved (a real one runs it on the next tick).
    expect(await after(0)).toBe('briefing.blocked');
    expect(h.fleet.view('w1')!.problem).toBe(BRIEF_NOT_TAKEN_UP);
  });

  it('a quiet period that holds settles the worker even past the deadline', async () => {
    await quietingAcrossTheDeadline();
    expect(await after(BRIEF_QUIET_MS)).toBe('settled.unconfirmed');
  });

  it('each Enter pressed again on our prompt gets the full confirmation time from that press', async () => {
    const pane = await toConfirming();
    h.clock.increment(BRIEF_CONFIRM_MS - 10 * RESUBMIT_AFTER_MS);
    await show(h, pane, stuck());
    // The agent takes the Enter: the box empties back to the screen we briefed from.
    h.host.onSend = (p, rec) => {
      if (rec.key === 'enter') queueMicrotask(() => h.host.show(p, reading()));
    };
    h.clock.increment(RESUBMIT_AFTER_MS);
    await settle(h);
    expect(automaticEnters()).toHaveLength(1);
    expect(stage()).toBe('briefing.confirming');
    // Past the deadline armed by the first prompt: still confirming, the Enter re-armed it.
    expect(await after(10 * RESUBMIT_AFTER_MS)).toBe('briefing.confirming');
    expect(await after(BRIEF_CONFIRM_MS - 10 * RESUBMIT_AFTER_MS - 1)).toBe('briefing.confirming');
    expect(await after(1)).toBe('briefing.blocked');
    expect(h.fleet.view('w1')!.problem).toBe(BRIEF_NOT_TAKEN_UP);
  });
});
