/**
 * Rules: an id whose worker is final (stopped/gone/failed/lost) — or whose row was skipped as
 * corrupt on restore — may be dispatched again, replacing actor and row and keeping the journal;
 * and a restart while a worker was spawning adopts the pane named after it instead of making a
 * second one.
 */
import { describe, it, expect } from 'vitest';
import { settle, toWorking, intent, STALL_MS, type Harness, useHarness } from './helpers/harness.ts';
import { ScriptedHost } from './helpers/scripted-host.ts';
import type { PaneInfo, PaneSpec } from '../../io/terminal/types.ts';

let h: Harness;
const harness = useHarness();

const dispatch = (id: string) => h.fleet.dispatch({ intent: intent(id, { backend: h.host.backend }), stallMs: STALL_MS, firstPrompt: `brief ${id}` });

describe('re-dispatch of an id whose worker is final', () => {
  it('replaces the old actor and store row and keeps the journal', async () => {
    h = await harness.start();
    const first = await toWorking(h, 'r1');
    h.host.exit(first, 1);
    await settle(h);
    expect(h.fleet.view('r1')!.stage).toBe('gone');
    const journalBefore = h.store.journal({ actorId: 'worker:r1' }).length;
    const v = await dispatch('r1');
    expect(v.stage).toBe('starting.waiting');
    expect(v.paneId).not.toBe(first);
    expect(v.exitCode).toBe(null);
    expect(h.store.listWorkers().filter((w) => w.id === 'r1')).toHaveLength(1);
    const journal = h.store.journal({ actorId: 'worker:r1' });
    expect(journal.length).toBeGreaterThan(journalBefore);
    expect(journal.map((e) => e.to)).toContain('gone');
    // The new worker lives its own life and survives a restart as one worker.
    await settle(h);
    await h.restart();
    await settle(h);
    expect(h.fleet.views().map((x) => x.id)).toEqual(['r1']);
    expect(h.fleet.view('r1')!.stage).toBe('starting.waiting');
  });

  it('a live worker with that id is still refused', async () => {
    h = await harness.start();
    await toWorking(h, 'r2');
    await expect(dispatch('r2')).rejects.toMatchObject({ code: 'worker-exists' });
  });

  it('a row skipped as corrupt on restore is replaced by a re-dispatch with its id', async () => {
    h = await harness.start();
    await toWorking(h, 'c1');
    await h.fleet.shutdown();
    h.store.workers.set('c1', { ...h.store.workers.get('c1')!, snapshotJson: '{not json' });
    const res = await h.restart();
    expect(res.skipped.map((s) => s.id)).toEqual(['c1']);
    const v = await dispatch('c1');
    expect(v.stage).toBe('starting.waiting');
    expect(JSON.parse(h.store.workers.get('c1')!.snapshotJson!).value).toEqual({ starting: 'waiting' });
  });
});

/** createPane makes the pane but never returns while `hang` is set: the daemon dies mid-spawn. */
class HangingHost extends ScriptedHost {
  hang = true;
  created = 0;
  override async createPane(spec: PaneSpec): Promise<PaneInfo> {
    this.created++;
    const info = await super.createPane(spec);
    return this.hang ? new Promise<PaneInfo>(() => {}) : info;
  }
}

describe('restart while spawning must not create a second pane', () => {
  it('a worker restored in spawning adopts the pane named after it', async () => {
    const host = new HangingHost();
    h = await harness.start({ host });
    void dispatch('s1').catch(() => {});
    await settle(h);
    expect(h.fleet.view('s1')!.stage).toBe('spawning');
    expect(host.panes.size).toBe(1);
    const [made] = [...host.panes.keys()];
    host.hang = false;
    await h.restart();
    await settle(h);
    expect(host.created).toBe(1);
    expect(host.panes.size).toBe(1);
    const v = h.fleet.view('s1')!;
    expect(v.paneId).toBe(made);
    expect(v.stage).toBe('starting.waiting');
  });

  it('a worker restored in spawning whose pane was never made gets one', async () => {
    const host = new HangingHost();
    h = await harness.start({ host });
    void dispatch('s2').catch(() => {});
    await settle(h);
    host.panes.clear(); // the previous daemon died before the pane existed
    host.hang = false;
    await h.restart();
    await settle(h);
    expect(host.created).toBe(2);
    expect(host.panes.size).toBe(1);
    expect(h.fleet.view('s2')!.stage).toBe('starting.waiting');
  });
});
