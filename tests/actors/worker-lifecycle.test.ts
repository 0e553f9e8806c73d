import { describe, it, expect } from 'vitest';
import { intent, showStartScreen, showTurnEnd, STALL_MS, startHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';

describe('worker lifecycle through the real wiring', () => {
  it('a worker is done only after settling with a report, and stop sends /exit then closes', async () => {
    const h = await startHarness();
    const v = await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'read the brief' });
    expect(v.stage).toBe('starting.waiting');
    const pane = v.paneId!;
    await showStartScreen(h, pane);
    expect(h.fleet.view('w1')!.stage).toBe('briefing.confirming');
    expect(h.host.sent.map((s) => s.text)).toEqual(['read the brief']);
    await show(h, pane, reading({ state: 'working', promptBox: '', fingerprint: 'f-w1' }));
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    await showTurnEnd(h, pane);
    expect(h.fleet.view('w1')!.stage).toBe('settled.unconfirmed');
    h.reports.add('/data/w1/report.md');
    await show(h, pane, reading({ fingerprint: 'f-idle3' }));
    expect(h.fleet.view('w1')!.stage).toBe('done');
    h.host.onSend = (p, rec) => { if (rec.text === '/exit') queueMicrotask(() => h.host.exit(p, 0)); };
    const res = await h.fleet.stop('w1');
    expect(res.view.problem).toBe(null);
    expect(res).toMatchObject({ exitCode: 0, paneReusable: true });
    expect(res.view.stage).toBe('stopped');
    expect(h.store.journal({ actorId: 'worker:w1' }).map((e) => e.to)).toContain('done');
    await h.fleet.shutdown();
  });
});
