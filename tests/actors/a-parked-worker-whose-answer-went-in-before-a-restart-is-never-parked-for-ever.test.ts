/**
 * A parked worker whose answer went in before a daemon's restart (the recovery found it entered or
 * sent, actors/decision-resume.ts) is at work on it, whatever its screen shows: its turn on the
 * answer may have ended while no daemon watched, leaving an idle screen and a report without its
 * Waiting on line, and `parked` leaves only on a busy screen or a dialog — the fault suite's
 * d-entered worker stayed parked for ever under load. ANSWER_IN sends it back to running, and the
 * idle screen then settles it as any turn's end does: done with its report.
 */
import { describe, expect, it } from 'vitest';
import { intent, showStartScreen, showTurnEnd, STALL_MS, startHarness, show, advance } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';

describe('a parked worker whose answer went in before a restart is never parked for ever', () => {
  it('parked; the turn on the answer ended unseen (idle screen, report without Waiting on): stays parked; ANSWER_IN → done', async () => {
    const h = await startHarness();
    const report = '/data/w1/report.md';
    const v = await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'read the brief' });
    const pane = v.paneId!;
    await showStartScreen(h, pane);
    await show(h, pane, reading({ state: 'working', promptBox: '', fingerprint: 'f-w1' }));
    h.reports.add(report);
    h.parked.set(report, 'Which database?');
    await showTurnEnd(h, pane);
    await show(h, pane, reading({ fingerprint: 'f-parked' }));
    expect(h.fleet.view('w1')!.stage).toBe('parked');

    // The answer's whole turn ran while no daemon watched: the report no longer waits on anyone.
    h.parked.delete(report);
    await show(h, pane, reading({ fingerprint: 'f-answered-and-done' }));
    await advance(h, SETTLE_QUIET_MS * 2);
    expect(h.fleet.view('w1')!.stage, 'an idle screen alone never leaves parked').toBe('parked');

    h.fleet.answerWentIn('w1');
    await show(h, pane, reading({ fingerprint: 'f-answered-and-done' }));
    await advance(h, SETTLE_QUIET_MS * 2);
    await show(h, pane, reading({ fingerprint: 'f-answered-and-done' }));
    expect(h.fleet.view('w1')!.stage).toBe('done');
    await h.fleet.shutdown();
  });
});
