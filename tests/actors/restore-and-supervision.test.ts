import { describe, it, expect } from 'vitest';
import { settle, toWorking, intent, STALL_MS, type Harness, useHarness } from './helpers/harness.ts';
import { ScriptedHost, reading } from './helpers/scripted-host.ts';
import { RefusedError } from '../../contract/errors.ts';
import { RECHECK_MS } from '../../actors/pane-feed.ts';

let h: Harness;
const harness = useHarness();

describe('restore', () => {
  it('corrupt and foreign snapshot rows are reported and skipped; the rest of the fleet comes back', async () => {
    h = await harness.start();
    await toWorking(h, 'good');
    await toWorking(h, 'bad-json');
    await toWorking(h, 'bad-state');
    await toWorking(h, 'old-version');
    await h.fleet.shutdown();
    const row = (id: string) => h.store.workers.get(id)!;
    h.store.workers.set('bad-json', { ...row('bad-json'), snapshotJson: '{not json' });
    const snap = JSON.parse(row('bad-state').snapshotJson!);
    h.store.workers.set('bad-state', { ...row('bad-state'), snapshotJson: JSON.stringify({ ...snap, value: { nowhere: 'x' } }) });
    h.store.workers.set('old-version', { ...row('old-version'), snapshotVersion: 99 });
    h.store.insertWorker(intent('never-written'));
    const res = await h.restart();
    await settle(h);
    expect(res.restored).toEqual(['good']);
    expect(res.skipped.map((s) => s.id).sort()).toEqual(['bad-json', 'bad-state', 'never-written', 'old-version']);
    for (const s of res.skipped) expect(s.reason).not.toBe('');
    expect(h.fleet.view('good')!.stage).toBe('running.working');
    expect(h.fleet.view('bad-json')).toBeNull();
  });

  it('a pty worker whose process died with the daemon is lost; its record (worktree) is kept', async () => {
    h = await harness.start({ host: new ScriptedHost('pty', false) });
    const pane = await toWorking(h, 'p1');
    h.host.panes.delete(pane); // the pty child died with the previous daemon
    await h.restart();
    await settle(h);
    const v = h.fleet.view('p1')!;
    expect(v.stage).toBe('lost');
    expect(v.worktree).toBe('/repo/.worktrees/p1');
    expect(v.live).toBe(false);
  });

  it('a tmux pane missing with the server up is gone; with the server down it is wait-failed, not gone', async () => {
    h = await harness.start();
    const p1 = await toWorking(h, 't1');
    const p2 = await toWorking(h, 't2');
    h.host.panes.delete(p1);
    await h.restart();
    await settle(h);
    expect(h.fleet.view('t1')!.stage).toBe('gone');
    const savedPane = h.host.panes.get(p2);
    h.host.panes.delete(p2);
    h.host.serverUp = false;
    await h.restart();
    await settle(h);
    expect(h.fleet.view('t2')!.stage).toBe('waitFailed');
    expect(h.fleet.view('t2')!.problem).toBe('wait-failed');
    // The server comes back with the pane: the next readable screen resumes the worker.
    h.host.serverUp = true;
    h.host.panes.set(p2, savedPane!);
    h.host.show(p2, reading({ state: 'working', fingerprint: 'f-back' }));
    h.clock.increment(RECHECK_MS); // the feed's confirming read
    await settle(h);
    expect(h.fleet.view('t2')!.stage).toBe('running.working');
    expect(h.fleet.view('t2')!.problem).toBe(null);
  });

  it('every transition is journaled with the snapshot, and the journal continues across a restart', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'j1');
    const before = h.store.journal({ actorId: 'worker:j1' }).length;
    await h.restart();
    await settle(h);
    h.host.exit(pane, 3);
    await settle(h);
    const entries = h.store.journal({ actorId: 'worker:j1' });
    expect(entries.length).toBeGreaterThan(before);
    expect(entries.at(-1)).toMatchObject({ from: 'running.working', to: 'gone' });
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b));
    expect(JSON.parse(h.store.workers.get('j1')!.snapshotJson!).value).toBe('gone');
    expect(h.fleet.view('j1')!.exitCode).toBe(3);
  });
});

describe('supervision', () => {
  it('a worker actor that throws is marked failed and the fleet stays up', async () => {
    // A port that throws synchronously inside the worker's action crashes that actor.
    h = harness.make({
      ports: {
        sendText: (host, paneId, text) => {
          if (text === 'boom') throw new Error('port exploded');
          return host.sendText(paneId, text);
        },
      },
    });
    await h.fleet.start();
    await toWorking(h, 'crash');
    await toWorking(h, 'calm');
    await expect(h.fleet.send('crash', 'boom')).rejects.toBeInstanceOf(RefusedError);
    await settle(h);
    const v = h.fleet.view('crash')!;
    expect(v.stage).toBe('failed');
    expect(v.problem).toContain('port exploded');
    const calm = await toWorking(h, 'after-crash');
    expect(calm).toBeTruthy();
    expect(h.fleet.view('calm')!.stage).toBe('running.working');
    await expect(h.fleet.send('crash', 'hi')).rejects.toBeInstanceOf(RefusedError);
  });

  it('an unknown worker id is refused with a typed error that names it and hand status', async () => {
    h = await harness.start();
    const err = await h.fleet.send('nobody', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as RefusedError).code).toBe('unknown-worker');
    expect((err as Error).message).toContain('nobody');
    expect((err as Error).message).toContain('hand status');
    await expect(h.fleet.dispatch({ intent: intent('x', { backend: 'herdr' }), stallMs: STALL_MS, firstPrompt: 'p' })).rejects.toMatchObject({ code: 'backend-unavailable' });
  });
});
