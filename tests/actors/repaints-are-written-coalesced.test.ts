/**
 * A streaming worker repaints ~10 times a second; each repaint that moves no state is written
 * at most once per QUIET_WRITE_MS as one trailing write, while phase changes are written at once.
 */
import { describe, expect, it } from 'vitest';
import { FleetJournal, QUIET_WRITE_MS } from '../../actors/fleet-journal.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { Clock } from '../../actors/ports.ts';

function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; f: () => void; live: boolean }> = [];
  const clock: Clock = {
    now: () => now,
    setTimeout: (f, ms) => {
      const t = { at: now + ms, f, live: true };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => {
      (h as { live: boolean }).live = false;
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers) if (t.live && t.at <= now) {
      t.live = false;
      t.f();
    }
  };
  return { clock, advance };
}

describe('repaints are written coalesced, phases at once', () => {
  it('ten quiet repaints in a second make one write; a phase change writes immediately', () => {
    const commits: Array<{ journal: unknown[] }> = [];
    const store = { commit: (c: { journal: unknown[] }) => commits.push(c) } as unknown as FleetStore;
    const { clock, advance } = fakeClock();
    const journal = new FleetJournal({ store, clock, onWorkerChange: () => {} });
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
    const journal = new FleetJournal({ store, clock, onWorkerChange: () => {} });
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

  it('a ROUTEd repaint does not rebuild the fleet row; a change of the fleet context is written at once', () => {
    const commits: Array<{ fleetSnapshotJson?: string; journal: unknown[] }> = [];
    const store = { commit: (c: { fleetSnapshotJson?: string; journal: unknown[] }) => commits.push(c) } as unknown as FleetStore;
    const { clock } = fakeClock();
    const journal = new FleetJournal({ store, clock, onWorkerChange: () => {} });
    journal.enable();
    let context: Record<string, unknown> = { workers: { w1: { status: 'active' } }, projects: {} };
    let persisted = 0;
    const fleet = {
      getPersistedSnapshot: () => {
        persisted++; // in xstate this walks every child worker
        return { value: 'active', context, children: { w1: {} } };
      },
    };
    journal.fleetRef = fleet as never;
    const emit = (type: string) => journal.inspect({ type: '@xstate.snapshot', actorRef: fleet, snapshot: { value: 'active', context, status: 'active' }, event: { type } } as never);

    emit('DISPATCH');
    expect(commits).toHaveLength(1);
    expect(JSON.parse(commits[0]!.fleetSnapshotJson!)).toEqual({ value: 'active', context });
    const before = persisted;
    for (let i = 0; i < 100; i++) emit('ROUTE');
    expect(persisted).toBe(before); // no snapshot built for a route that changed nothing
    expect(commits).toHaveLength(1);

    context = { ...context, projects: { demo: { name: 'demo' } } }; // an assign: a new context object
    emit('PROJECT');
    expect(commits).toHaveLength(2);
    expect(JSON.parse(commits[1]!.fleetSnapshotJson!).context.projects).toEqual({ demo: { name: 'demo' } });
  });
});
