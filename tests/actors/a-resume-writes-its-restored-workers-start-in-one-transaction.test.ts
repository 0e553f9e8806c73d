/**
 * A resume starts every restored worker's actor at once, and each journals its start (a row from
 * nothing to its stage, and its snapshot). One SQLite transaction each held the daemon's thread
 * 130–230 ms of a resume of 500 (issue 46): they are written as one, in their order. A batch the
 * database refuses for its content is written commit by commit, so one bad row costs only its own.
 */
import { describe, expect, it } from 'vitest';
import { FleetJournal, mergeCommits } from '../../actors/fleet-journal.ts';
import { workerSystemId } from '../../machines/fleet.machine.ts';
import type { CommitArgs } from '../../persistence/commit-queue.ts';
import type { FleetStore } from '../../persistence/types.ts';
import { toWorking, useHarness } from './helpers/harness.ts';

const { start } = useHarness();

describe('a resume journals its restored workers in one transaction', () => {
  it('writes every restored worker\'s start row and snapshot in one commit', async () => {
    const h = await start();
    const ids = Array.from({ length: 12 }, (_, i) => `w${i}`);
    for (const id of ids) await toWorking(h, id);
    const seen: CommitArgs[] = [];
    const commit = h.store.commit.bind(h.store);
    h.store.commit = (args) => {
      seen.push(args);
      commit(args);
    };
    const rowsBefore = h.store.entries.length;
    const { restored } = await h.restart();
    expect(restored.sort()).toEqual([...ids].sort());
    // The start rows: from nothing (a new actor) to the stage the worker was restored in.
    const startRows = h.store.entries.slice(rowsBefore).filter((e) => e.actorId.startsWith('worker:') && e.from === null);
    expect(startRows.map((e) => e.actorId).sort()).toEqual(ids.map((id) => `worker:${id}`).sort());
    const holding = seen.filter((c) => c.journal.some((e) => e.actorId.startsWith('worker:') && e.from === null));
    expect(holding, 'one commit holds every restored worker\'s start row').toHaveLength(1);
    expect(Object.keys(holding[0]!.snapshots ?? {}).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(h.fleet.view(id)!.stage).toBe('running.working');
  });
});

describe('a batch of commits', () => {
  const snap = (id: string) => ({ value: { running: 'working' }, status: 'active', context: { id } });
  const started = (id: string) => ({
    type: '@xstate.snapshot',
    actorRef: { systemId: workerSystemId(id), getPersistedSnapshot: () => snap(id) },
    snapshot: snap(id),
    event: { type: 'xstate.init' },
  }) as never;
  const clock = { now: () => 7, setTimeout: () => 0, clearTimeout: () => {} } as never;

  it('is written as the commits one after another would have left it', () => {
    const merged = mergeCommits([
      { snapshotVersion: 3, snapshots: { a: '1' }, journal: [{ actorId: 'worker:a', event: 1, from: null, to: 'x', at: 1 }] },
      { snapshotVersion: 3, fleetSnapshotJson: 'f1', journal: [] },
      { snapshotVersion: 3, snapshots: { a: '2', b: '1' }, journal: [{ actorId: 'worker:b', event: 2, from: null, to: 'y', at: 2 }] },
      { snapshotVersion: 3, fleetSnapshotJson: 'f2', journal: [{ actorId: 'fleet', event: 3, from: 'p', to: 'q', at: 3 }] },
    ]);
    expect(merged.snapshots).toEqual({ a: '2', b: '1' });
    expect(merged.fleetSnapshotJson).toBe('f2');
    expect(merged.journal.map((e) => e.event)).toEqual([1, 2, 3]);
  });

  it('refused for one row\'s content, writes the others one by one', () => {
    const written: string[] = [];
    const logged: unknown[] = [];
    const store = {
      commit(args: CommitArgs) {
        const ids = Object.keys(args.snapshots ?? {});
        if (ids.includes('gone')) throw new Error('no worker gone in the store');
        written.push(...ids);
      },
    } as unknown as FleetStore;
    const journal = new FleetJournal({ store, clock, log: (o) => void logged.push(o) });
    journal.enable();
    journal.batch(() => {
      for (const id of ['a', 'gone', 'b']) journal.inspect(started(id));
      expect(written, 'nothing is written while the batch runs').toEqual([]);
    });
    expect(written).toEqual(['a', 'b']);
    expect(logged).toHaveLength(1);
  });

  it('outside a batch, each transition is written at once', () => {
    const written: string[][] = [];
    const store = { commit: (args: CommitArgs) => void written.push(Object.keys(args.snapshots ?? {})) } as unknown as FleetStore;
    const journal = new FleetJournal({ store, clock });
    journal.enable();
    journal.inspect(started('a'));
    expect(written).toEqual([['a']]);
    journal.batch(() => ['b', 'c'].forEach((id) => journal.inspect(started(id))));
    journal.inspect(started('d'));
    expect(written).toEqual([['a'], ['b', 'c'], ['d']]);
  });
});
