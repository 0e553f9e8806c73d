/**
 * Rule: the first prompt is typed only once the start screen has settled. Real Claude Code
 * 2.1.332 keeps redrawing its start screen for about a second after the input box first shows,
 * and a prompt typed into it then can be lost entirely (a dialog opening drops keys). So the
 * first idle, empty-box screen arms an absolute deadline (STARTUP_SETTLE_MS); the prompt goes
 * out when it fires and only if the latest reading is still idle with an empty box.
 *
 * A start screen that says the agent has not finished starting (startingUp: Gemini CLI draws its
 * box before it loads its configuration, and loads a resumed conversation after that, dropping a
 * line typed before) waits STARTING_UP_WAIT_MS instead, until a screen that no longer says so:
 * from that one, STARTUP_SETTLE_MS. One that says so for good is typed into at the bound.
 */
import { describe, it, expect } from 'vitest';
import { dispatchBrief, settle, type Harness, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { STARTUP_SETTLE_MS } from '../../machines/worker.machine.ts';
import { STARTING_UP_WAIT_MS } from '../../machines/worker.constants.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';

const PROMPT = 'Read /data/w1/brief.md and follow it.';
const harness = useHarness();

/** A started harness with w1 dispatched and waiting for its start screen; the harness and w1's pane. */
async function started(): Promise<{ h: Harness; pane: string }> {
  const h = await harness.start();
  const v = await dispatchBrief(h, 'w1', PROMPT);
  expect(v.stage).toBe('starting.waiting');
  return { h, pane: v.paneId! };
}
const typed = (h: Harness) => h.host.sent.filter((s) => s.kind === 'text');
const stage = (h: Harness) => h.fleet.view('w1')!.stage;
const dialog = reading({ state: 'blocked', awaitingInput: true, blockedReason: 'folder-trust', promptBox: null, promptBoxKind: null, fingerprint: 'f-dialog' });

describe('the first prompt waits for the start screen to settle', () => {
  it('the first prompt is not typed before the settle deadline, however the start screen is redrawn; then it is typed once', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-start1' }));
    expect(stage(h)).toBe('starting.settling');
    // Redraws of the start screen do not push the deadline out (it is absolute, from the first one).
    h.clock.increment(STARTUP_SETTLE_MS / 2);
    await show(h, pane, reading({ fingerprint: 'f-start2' }));
    h.clock.increment(STARTUP_SETTLE_MS / 2 - 1);
    await show(h, pane, reading({ fingerprint: 'f-start3' }));
    expect(typed(h)).toEqual([]);
    expect(stage(h)).toBe('starting.settling');
    h.clock.increment(1);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
    expect(typed(h)[0]!.reading).toMatchObject({ state: 'idle', promptBox: '', fingerprint: 'f-start3' });
    expect(stage(h)).toBe('briefing.confirming');
  });

  it('a dialog during the settle time blocks the worker and is never answered; once a person dismisses it the start screen settles again', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-start1' }));
    await show(h, pane, dialog);
    h.clock.increment(10 * STARTUP_SETTLE_MS);
    await settle(h);
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('starting.blocked');
    expect(conditionOf(v)).toBe('blocked');
    expect(h.host.sent).toEqual([]);
    // Dismissed by hand: the box shows again, and the prompt waits its settle time from there.
    await show(h, pane, reading({ fingerprint: 'f-start2' }));
    expect(stage(h)).toBe('starting.settling');
    expect(typed(h)).toEqual([]);
    h.clock.increment(STARTUP_SETTLE_MS);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
  });

  it('text in the box when the settle time runs out is never briefed into: the worker is blocked with the text quoted', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-start1' }));
    await show(h, pane, reading({ fingerprint: 'f-text', promptBox: 'half a thought', promptBoxKind: 'typed' }));
    h.clock.increment(10 * STARTUP_SETTLE_MS);
    await settle(h);
    expect(stage(h)).toBe('starting.boxHeld');
    expect(h.fleet.view('w1')!.problem).toContain('half a thought');
    expect(h.host.sent).toEqual([]);
  });

  it('an unreadable screen when the settle time runs out types nothing: the next idle empty box settles again', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-start1' }));
    await show(h, pane, { ...UNREADABLE_READING });
    h.clock.increment(STARTUP_SETTLE_MS);
    await settle(h);
    expect(stage(h)).toBe('starting.waiting');
    expect(h.host.sent).toEqual([]);
    await show(h, pane, reading({ fingerprint: 'f-start2' }));
    h.clock.increment(STARTUP_SETTLE_MS - 1);
    await settle(h);
    expect(typed(h)).toEqual([]);
    h.clock.increment(1);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
  });

  it('a restore during the settle time keeps the original absolute deadline', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-start1' }));
    h.clock.increment(STARTUP_SETTLE_MS - 300);
    await settle(h);
    const { restored } = await h.restart();
    expect(restored).toEqual(['w1']);
    await settle(h);
    expect(stage(h)).toBe('starting.settling');
    h.clock.increment(299);
    await settle(h);
    expect(typed(h)).toEqual([]);
    h.clock.increment(1);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
    expect(stage(h)).toBe('briefing.confirming');
  });

  it('a start screen that says the agent is still starting is not typed into at the settle time; the first screen that no longer says so settles from its own time', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-bare1', startingUp: true }));
    expect(stage(h)).toBe('starting.settling');
    h.clock.increment(3 * STARTUP_SETTLE_MS);
    await show(h, pane, reading({ fingerprint: 'f-bare2', startingUp: true }));
    expect(typed(h)).toEqual([]);
    // Started: the transcript is drawn. The prompt waits STARTUP_SETTLE_MS from this screen.
    await show(h, pane, reading({ fingerprint: 'f-started' }));
    h.clock.increment(STARTUP_SETTLE_MS - 1);
    await settle(h);
    expect(typed(h)).toEqual([]);
    // Its redraws do not push the deadline out again.
    await show(h, pane, reading({ fingerprint: 'f-started2' }));
    h.clock.increment(1);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
    expect(typed(h)[0]!.reading).toMatchObject({ fingerprint: 'f-started2' });
  });

  it('a start screen that keeps saying the agent is still starting is typed into once STARTING_UP_WAIT_MS has passed, never before', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-bare1', startingUp: true }));
    h.clock.increment(STARTING_UP_WAIT_MS - 1);
    await show(h, pane, reading({ fingerprint: 'f-bare2', startingUp: true }));
    expect(typed(h)).toEqual([]);
    h.clock.increment(1);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
  });

  it('a still-starting start screen held across a restore keeps its longer deadline', async () => {
    const { h, pane } = await started();
    await show(h, pane, reading({ fingerprint: 'f-bare1', startingUp: true }));
    h.clock.increment(2 * STARTUP_SETTLE_MS);
    await settle(h);
    await h.restart();
    await settle(h);
    expect(stage(h)).toBe('starting.settling');
    expect(typed(h)).toEqual([]);
    h.clock.increment(STARTING_UP_WAIT_MS - 2 * STARTUP_SETTLE_MS);
    await settle(h);
    expect(typed(h).map((s) => s.text)).toEqual([PROMPT]);
  });
});
