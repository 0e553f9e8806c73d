/**
 * Rule: a worker is never called settled while its prompt waits for the turn to begin. OpenCode
 * 1.18.33 takes the Enter, opens its session view (our prompt the transcript's last message, the
 * composer empty, the idle status row) and, on a loaded machine, holds it up to 1.6 s (measured)
 * before the turn's spinner shows; with the daemon's read lag on top, that screen held still past
 * BRIEF_QUIET_MS. Read idle, it was quiet enough to call the worker settled and `hand wait
 * --until settled` returned before the turn had begun. Read as a turn still pending (working),
 * the worker stays at work until the turn ends on screen.
 *
 * The screens are the real tmux captures of that run (tests/fixtures/opencode-first-prompt/),
 * read by the real OpenCode reader and shown to the worker in the order they came.
 */
import { describe, expect, it } from 'vitest';
import type { ScreenReading } from '../../io/screen/types.ts';
import { BRIEF_QUIET_MS, SETTLE_QUIET_MS } from '../../machines/worker.constants.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { tookThePrompt } from '../../actors/took-the-prompt.ts';
import { opencodeFirstPromptScreens } from './helpers/opencode-first-prompt-screens.ts';
import { advance, dispatchBrief, show, showStartScreen, showTurnEnd, toWorking, type Harness, useHarness } from './helpers/harness.ts';

const PROMPT = 'Read the brief at /tmp/kh-test-04a181-repro-oc-5GJbsr/state/workers/oc1/brief.md in full before you start, then do the work it describes.';
const screens = opencodeFirstPromptScreens();
/** Longer than measured (1.6 s) and than the quiet time, as a loaded daemon's reads see it. */
const HELD_MS = BRIEF_QUIET_MS + 1_000;

let h: Harness;
const harness = useHarness();
const view = () => h.fleet.view('w1')!;

describe('a worker is never settled while its prompt waits for the turn to begin', () => {
  it('pasted → Enter taken → session view held past the quiet time → spinner: never settled', async () => {
    h = await harness.start();
    const pane = (await dispatchBrief(h, 'w1', PROMPT)).paneId!;
    await showStartScreen(h, pane, screens.enterTaken);
    const seen: string[] = [];
    const note = () => seen.push(`${view().stage}/${conditionOf(view()) ?? '-'}`);
    for (const [screen, ms] of [[screens.pasted, 1_700], [screens.enterTaken, 200], [screens.betweenViews, 100], [screens.sessionOpened, HELD_MS]] as const) {
      await show(h, pane, screen);
      note();
      // Read again and again while it is held, as the daemon's pane feed does.
      for (let t = 0; t < ms; t += 250) {
        await advance(h, 250);
        note();
      }
    }
    expect(view().stage, `stages: ${seen.join(' → ')}`).toBe('running.working');
    await show(h, pane, screens.working);
    note();
    expect(view().stage).toBe('running.working');
    expect(seen.filter((s) => /settled/.test(s)), `stages: ${seen.join(' → ')}`).toEqual([]);
  });

  it('after a send, the prompt taken with no spinner yet is the new turn: the send is confirmed and the worker is not settled', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await showTurnEnd(h, pane);
    expect(view().condition).toBe('settled');
    const seen: string[] = [];
    const took = waitFor(h.fleet, 'w1', tookThePrompt, { timeoutMs: 60_000, fresh: true, onView: (v) => seen.push(`${v.stage}/${v.condition}`) });
    await h.fleet.send('w1', 'Say done.');
    // The view the Enter opens: the prompt last in the transcript, the box empty, no spinner yet.
    // (A first prompt's capture; after a send the finished turn sits above it, out of the rule's way.)
    let outcome: Awaited<typeof took> | null = null;
    void took.then((o) => { outcome = o; });
    await show(h, pane, screens.sessionOpened);
    expect(outcome, `the send was not confirmed by the turn it began; views: ${seen.join(' → ')}`).toMatchObject({ by: 'accepted' });
    await advance(h, SETTLE_QUIET_MS + HELD_MS);
    expect(view().stage, `views: ${seen.join(' → ')}`).toBe('running.working');
    expect(view().condition).not.toBe('settled');
  });
});
