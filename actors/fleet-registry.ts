/**
 * The fleet host's registry (actors/fleet-host.ts assembles it): one record per worker, the
 * fleet actor (machines/fleet) that supervises their actors, and what each worker shows — its
 * view, built from the record and the actor's snapshot, and published to the listeners. Every
 * other part of the host reaches a worker through here: its record, its terminal, its actor
 * (`route`), its view. The actor's life is here too: started fresh or from a restored snapshot,
 * followed (actors/follow-workers.ts), journalled (actors/fleet-journal.ts), flushed and stopped.
 */
import { createActor, type AnyActorRef } from 'xstate';
import { fleetMachine, workerIdOfSystemId, workerSystemId, type FleetContext } from '../machines/fleet.machine.ts';
import type { WorkerEvent } from '../machines/worker.types.ts';
import type { BackendName, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import { screenReaderOf } from '../io/agent/profiles/index.ts';
import { backendUnavailable, unknownWorker } from '../contract/refusals.ts';
import type { Clock } from './ports.ts';
import type { FleetJournal } from './fleet-journal.ts';
import { followWorkers } from './follow-workers.ts';
import { buildView, type WorkerView } from './worker-view.ts';
import { CRASHED, meaningOfStage, stagePath } from './condition.ts';
import type { WorkerRecord, WorkerSnap } from './worker-record.ts';
import { waitFor } from './wait-for.ts';
import { witnessView } from './witness.ts';

/** The fleet machine with its worker logic provided (fleet-host.ts makes it once). */
export type FleetLogic = ReturnType<typeof fleetMachine.provide>;

export interface FleetRegistryDeps {
  hosts: Partial<Record<BackendName, TerminalHost>>;
  farHost?(name: string): TerminalHost | undefined;
  /** Why a far host cannot be told about now, or null (FleetHostDeps.hostProblem). */
  hostProblem?(host: string): string | null;
  /** Why a terminal server stopped answering, or null (actors/host-answers.ts). */
  couldNotTell(terminal: TerminalHost | undefined): string | null;
  store: Pick<FleetStore, 'deleteWorker'>;
  journal: FleetJournal;
  clock: Clock;
  log?: (obj: Record<string, unknown>) => void;
}

/** `claude@2.1.332` when dispatch recorded the version: the reader picks the nearest profile. */
export const readerProfile = (intent: WorkerIntent): string => screenReaderOf(intent.agent, intent.agentVersion);

/** A far host's worker is named with its host in refusals: `tmux on box`. */
const backendLabel = (intent: WorkerIntent): string =>
  intent.host && intent.host !== 'local' ? `${intent.backend} on ${intent.host}` : intent.backend;

export function createFleetRegistry(d: FleetRegistryDeps) {
  const { clock } = d;
  /** One record per worker (actors/worker-record.ts): forgetting a worker is dropping its record. */
  const records = new Map<string, WorkerRecord>();
  const listeners = new Set<(v: WorkerView) => void>();
  let fleet: ReturnType<typeof createActor<typeof fleetMachine>> | null = null;
  let unfollow: (() => void) | null = null;

  const recordOf = (id: string): WorkerRecord => {
    const record = records.get(id);
    if (!record) throw unknownWorker(id);
    return record;
  };
  const intentOf = (id: string): WorkerIntent => recordOf(id).intent;
  /** Where a worker's panes are: its host's (over ssh) or this machine's host of its backend. */
  const terminalFor = (intent: WorkerIntent): TerminalHost | undefined =>
    intent.host && intent.host !== 'local' ? d.farHost?.(intent.host) : d.hosts[intent.backend];
  const readerOfId = (id: string): string => readerProfile(intentOf(id));
  /** Refuses a worker whose terminal host this daemon does not have (backend-unavailable). */
  const requireTerminal = (intent: WorkerIntent): TerminalHost => {
    const host = terminalFor(intent);
    if (!host) throw backendUnavailable(backendLabel(intent));
    return host;
  };
  const hostOf = (id: string): TerminalHost => requireTerminal(intentOf(id));
  const workerRef = (id: string): AnyActorRef | undefined => fleet?.system.get(workerSystemId(id)) as AnyActorRef | undefined;
  const fleetContext = (): FleetContext => fleet!.getSnapshot().context;

  function view(id: string): WorkerView | null {
    const record = records.get(id);
    if (!record || !fleet) return null;
    const entry = fleetContext().workers[id];
    const snap = (workerRef(id)?.getSnapshot() as WorkerSnap | undefined) ?? record.snapshot ?? undefined;
    const failed = entry?.status === 'failed' || snap?.status === 'error';
    const stage = failed || !snap ? 'failed' : stagePath(snap.value);
    const meaning = failed || !snap ? CRASHED : meaningOfStage(stage);
    // A far host's own condition (a changed key) is every one of its workers' reason.
    const hostProblem = record.intent.host && record.intent.host !== 'local' && meaning.condition !== 'gone' ? (d.hostProblem?.(record.intent.host) ?? null) : null;
    return buildView({
      intent: record.intent,
      stage,
      meaning,
      context: snap?.context ?? null,
      live: record.live,
      updatedAt: record.updatedAt,
      problem: failed ? (entry?.error ?? 'worker actor failed') : (hostProblem ?? undefined),
      witness: witnessView(record.witness, clock.now()),
      couldNotTell: d.couldNotTell(terminalFor(record.intent)),
      readOnly: record.readOnly,
    });
  }

  function requireWorker(id: string): WorkerView {
    const v = view(id);
    if (!v) throw unknownWorker(id);
    return v;
  }

  /**
   * Screen readings, host events and person commands go straight to the worker's actor: the
   * fleet keeps the registry and supervises, it relays nothing. Only a worker the registry
   * holds as active takes events (a finished or crashed one has nothing left to receive them).
   */
  function route(id: string, event: WorkerEvent): void {
    if (!fleet || fleetContext().workers[id]?.status !== 'active') return;
    workerRef(id)?.send(event);
  }

  /** Wakes the listeners with the worker's view as it is now. */
  const publish = (id: string): void => {
    const v = view(id);
    if (v) for (const l of listeners) l(v);
  };

  const subscribe = (listener: (v: WorkerView) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  /**
   * A worker's snapshot, as its actor subscription hands it over (actors/follow-workers.ts):
   * the record and the view are brought up to date at once, from this snapshot; listeners get
   * the view from a microtask, once the journal has committed the same snapshot.
   */
  function onWorkerSnapshot(id: string, snapshot: WorkerSnap): void {
    const record = records.get(id);
    if (!record) return;
    record.snapshot = snapshot;
    record.updatedAt = clock.now();
    const v = view(id);
    if (!v) return;
    // After every phase change read the screen again: a reading taken while the worker was in
    // an earlier phase (e.g. the first screen, painted before spawning finished) must be seen.
    if (record.lastStage !== v.stage) {
      record.lastStage = v.stage;
      if (v.condition === 'gone') record.feed?.stop();
      else record.feed?.requestRead();
    }
    queueMicrotask(() => {
      for (const l of listeners) l(v);
    });
  }

  /** Starts the fleet actor, fresh or from a restored snapshot, journalled and followed. */
  function startFleet(logic: FleetLogic, snapshot?: unknown): void {
    fleet = createActor(logic, { inspect: d.journal.inspect, ...(snapshot ? { snapshot: snapshot as never } : {}) });
    d.journal.fleetRef = fleet;
    fleet.subscribe({ error: (err) => d.log?.({ msg: 'fleet actor error', err: String(err) }) });
    d.journal.enable();
    // A restored fleet starts every worker's actor here: their first rows go in one transaction.
    d.journal.batch(() => fleet!.start());
    unfollow = followWorkers(fleet, {
      workerIdOf: (ref) => workerIdOfSystemId((ref as { systemId?: string }).systemId),
      onSnapshot: (id, snapshot) => onWorkerSnapshot(id, snapshot as WorkerSnap),
    });
  }

  /** Stops the fleet actor once the journal holds every live worker's last snapshot. */
  async function stopFleet(): Promise<void> {
    if (!fleet) return;
    const workers: Record<string, AnyActorRef> = {};
    for (const id of records.keys()) {
      const ref = workerRef(id);
      if (ref && (ref.getSnapshot() as { status: string }).status !== 'error') workers[id] = ref;
    }
    unfollow?.();
    unfollow = null;
    await d.journal.flush(fleet, workers);
    d.journal.disable();
    fleet.stop();
    fleet = null;
  }

  /** Drops a finished worker's actor, row and record so its id can be dispatched again. */
  function forget(id: string): void {
    records.get(id)?.feed?.stop();
    records.delete(id);
    fleet?.send({ type: 'FORGET', id });
    d.store.deleteWorker(id);
  }

  const registry = {
    records,
    recordOf,
    intentOf,
    terminalFor,
    requireTerminal,
    hostOf,
    readerOfId,
    view,
    views: (): WorkerView[] => [...records.keys()].map((id) => view(id)).filter((v): v is WorkerView => v !== null),
    requireWorker,
    route,
    publish,
    subscribe,
    /** Resolves with the first view (now or later) that `accept` takes. */
    until: (id: string, accept: (v: WorkerView) => boolean): Promise<WorkerView> =>
      waitFor(registry, id, accept).then(({ view }) => view!),
    /** The fleet actor runs (between start or a first dispatch and shutdown). */
    running: (): boolean => fleet !== null,
    /** Sends the fleet actor an event of its own (DISPATCH); false when it is not running. */
    sendFleet: (event: Parameters<NonNullable<typeof fleet>['send']>[0]): boolean => {
      if (!fleet) return false;
      fleet.send(event);
      return true;
    },
    startFleet,
    stopFleet,
    forget,
  };
  return registry;
}

export type FleetRegistry = ReturnType<typeof createFleetRegistry>;
