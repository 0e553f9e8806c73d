/**
 * A streaming worker repaints ~10 times a second; each repaint that moves no state is written
 * at most once per QUIET_WRITE_MS as one trailing write, while phase changes are written at once.
 */
import { describe, expect, it } from 'vitest';
import { FleetJournal, QUIET_WRITE_MS } from '../../actors/fleet-journal.ts';
import type { FleetStore } from '../../persistence/types.ts';
import { makeHarness, settle, toWorking } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { fakeClock } from './helpers/fake-clock.ts';


describe('repaints are written coalesced, phases at once', () => {
  it('ten quiet repaints in a second make one write; a phase change writes immediately', () => {
    const commits: Array<{ journal: unknown[] }> = [];
    const store = { commit: (c: { journal: unknown[] }) => commits.push(c) } as unknown as FleetStore;
    const { clock, advance } = fakeClock();
    const journal = new FleetJournal({ store, clock });
    journal.enable();
    let value: unknown = { running: 'working' };
    let context = { fingerprint: 'a', lastChangeAt: 0, stallAt: 1000 };
    const ref = { systemId: 'worker:w1', getPersistedSnapshot: () => ({ value, context }) };
    const emit = (type: string) => journal.inspect({ type: '@xstate.snapshot', actorRef: ref, snapshot: { value, context, status: 'active' }, event: { type } } as never);

    emit('SCREEN'); // first sight: a move from nothing → written at once
    expect(commits).toHaveLength(1);
    for (let i = 0; i < 10; i++) {
      emit('SCREEN');
      advance(QUIET_WRITE_MS / 10 - 1);
    }
    expect(commits).toHaveLength(1);
    advance(QUIET_WRITE_MS);
    expect(commits).toHaveLength(2);
    expect(commits[1]!.journal).toEqual([]);

    emit('SCREEN');
    value = { running: 'blocked' };
    emit('SCREEN');
    expect(commits).toHaveLength(3);
    expect(commits[2]!.journal).toHaveLength(1);
    advance(QUIET_WRITE_MS * 2);
    expect(commits).toHaveLength(3); // the pending repaint was covered by the phase write
  });

  it('a repaint that moves the stall clock is written at once, so the deadline survives a crash', () => {
    const commits: Array<{ snapshots?: Record<string, string> }> = [];
    const store = { commit: (c: { snapshots?: Record<string, string> }) => commits.push(c) } as unknown as FleetStore;
    const { clock } = fakeClock();
    const journal = new FleetJournal({ store, clock });
    journal.enable();
    const value = { running: 'working' };
    let context = { fingerprint: 'a', lastChangeAt: 0, stallAt: 1000 };
    const ref = { systemId: 'worker:w1', getPersistedSnapshot: () => ({ value, context }) };
    const emit = () => journal.inspect({ type: '@xstate.snapshot', actorRef: ref, snapshot: { value, context, status: 'active' }, event: { type: 'SCREEN' } } as never);
    emit();
    emit();
    expect(commits).toHaveLength(1);
    context = { fingerprint: 'b', lastChangeAt: 500, stallAt: 1500 };
    emit();
    expect(commits).toHaveLength(2);
    expect(JSON.parse(commits[1]!.snapshots!.w1!).context.stallAt).toBe(1500);
  });

  it('a repaint never reaches the fleet actor: the fleet row is written only when the registry changes', async () => {
    const h = makeHarness();
    let fleetWrites = 0;
    const commit = h.store.commit.bind(h.store);
    h.store.commit = (args) => {
      if (args.fleetSnapshotJson !== undefined) fleetWrites++;
      commit(args);
    };
    const pane = await toWorking(h, 'w1');
    const afterDispatch = fleetWrites;
    expect(afterDispatch).toBeGreaterThan(0); // the dispatch changed the registry: written
    for (let i = 0; i < 50; i++) h.host.show(pane, reading({ state: 'working', fingerprint: `f-${i}` }));
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('running.working');
    expect(fleetWrites).toBe(afterDispatch);
    expect(h.store.journal({ actorId: 'fleet' }).filter((e) => (e.event as { type: string }).type === 'SCREEN')).toEqual([]);
    await toWorking(h, 'w2');
    expect(fleetWrites).toBeGreaterThan(afterDispatch); // a second worker in the registry: written
    await h.fleet.shutdown();
  });
});
