/**
 * The fleet host: the running system behind the daemon. One fleet actor (machines/fleet) with
 * one worker actor per worker, fed by their panes and persisted on every transition.
 * The daemon calls only the FleetHost API below; everything else is wiring.
 */
import { createActor, type AnyActorRef } from 'xstate';
import { fleetMachine, workerSystemId, type FleetContext } from '../machines/fleet.machine.ts';
import type { WorkerContext, WorkerEvent } from '../machines/worker.types.ts';
import { analyseScreen, profileNames } from '../io/screen/index.ts';
import type { Screen, ScreenReading } from '../io/screen/types.ts';
import type { BackendName, Key, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import { RefusedError } from '../io/errors.ts';
import { realClock, type Clock, type LandingPort, type WorkerPorts } from './ports.ts';
import { gateCommands, type GateCommands } from './gate-commands.ts';
import { provideWorker } from './worker-logic.ts';
import { PaneFeed } from './pane-feed.ts';
import { FleetJournal } from './fleet-journal.ts';
import { buildView, stagePath, FINAL_STAGES, type WorkerView } from './worker-view.ts';
import { Requests, refusalError } from './requests.ts';
import { restoreFleet } from './restore.ts';

export type { WorkerView } from './worker-view.ts';

export interface FleetHostDeps {
  store: FleetStore;
  hosts: Partial<Record<BackendName, TerminalHost>>;
  ports: WorkerPorts;
  /** How approved landings are performed (io/git through actors/daemon/landing.ts). */
  landing?: LandingPort;
  clock?: Clock;
  log?: (obj: Record<string, unknown>) => void;
  /** Screen analysis (default: io/screen's profile for the agent; 'mock' renders Claude Code's screens). */
  analyse?: (screen: Screen, agent: string) => ScreenReading;
}

export interface FleetHost extends GateCommands {
  start(): Promise<{ restored: string[]; skipped: { id: string; reason: string }[] }>;
  /** briefGate: the worker waits at the dispatch gate before anything is created (non-yolo projects). */
  dispatch(req: { intent: WorkerIntent; stallMs: number; unclassifiedMs?: number; firstPrompt: string; briefGate?: boolean }): Promise<WorkerView>;
  view(id: string): WorkerView | null;
  views(): WorkerView[];
  subscribe(listener: (view: WorkerView) => void): () => void;
  send(id: string, text: string, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerView>;
  key(id: string, key: Key, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerView>;
  stop(id: string, opts?: { timeoutMs?: number }): Promise<{ view: WorkerView; exitCode: number | null; paneReusable: boolean }>;
  readScreen(id: string, opts?: { scrollback?: number }): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  shutdown(): Promise<void>;
  /** Tests: resolves once every pane read requested so far has reached its worker. */
  quiesce(): Promise<void>;
}

type WorkerSnap = { value: unknown; status: string; context: WorkerContext };

const defaultAnalyse = (screen: Screen, agent: string): ScreenReading =>
  analyseScreen(screen, profileNames().includes(agent.split('@')[0]!) ? agent : 'claude');

/** `claude@2.1.332` when dispatch recorded the version: the reader picks the nearest profile. */
const readerProfile = (intent: WorkerIntent): string =>
  intent.agentVersion ? `${intent.agent}@${intent.agentVersion}` : intent.agent;

/** Phases before a pane exists: dispatch() resolves when the worker leaves them. */
const PRE_PANE = new Set(['preparing', 'seeding', 'spawning']);

export function createFleetHost(deps: FleetHostDeps): FleetHost {
  const clock = deps.clock ?? realClock;
  const analyse = deps.analyse ?? defaultAnalyse;
  const intents = new Map<string, WorkerIntent>();
  const feeds = new Map<string, PaneFeed>();
  const live = new Map<string, boolean | null>();
  const updatedAt = new Map<string, number>();
  /** Last snapshot seen per worker: a worker in a final state is no longer in the system registry. */
  const known = new Map<string, WorkerSnap>();
  const listeners = new Set<(v: WorkerView) => void>();
  const requests = new Requests();
  const resumingSpawn = new Set<string>();
  let fleet: ReturnType<typeof createActor<typeof fleetMachine>> | null = null;

  const intentOf = (id: string): WorkerIntent => {
    const intent = intents.get(id);
    if (!intent) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}; run hand status to list workers.`, { id });
    return intent;
  };
  const hostOf = (id: string): TerminalHost => {
    const backend = intentOf(id).backend;
    const host = deps.hosts[backend];
    if (!host) throw new RefusedError('backend-unavailable', `the ${backend} terminal host is not available in this daemon.`, { backend });
    return host;
  };
  const workerRef = (id: string): AnyActorRef | undefined => fleet?.system.get(workerSystemId(id)) as AnyActorRef | undefined;
  const fleetContext = (): FleetContext => fleet!.getSnapshot().context;

  function view(id: string): WorkerView | null {
    const intent = intents.get(id);
    if (!intent || !fleet) return null;
    const entry = fleetContext().workers[id];
    const ref = workerRef(id);
    const snap = (ref?.getSnapshot() as WorkerSnap | undefined) ?? known.get(id);
    const failed = entry?.status === 'failed' || snap?.status === 'error';
    return buildView({
      intent,
      stage: failed || !snap ? 'failed' : stagePath(snap.value),
      context: snap?.context ?? null,
      live: live.get(id) ?? null,
      updatedAt: updatedAt.get(id) ?? intent.createdAt,
      problem: failed ? (entry?.error ?? 'worker actor failed') : undefined,
    });
  }

  function route(id: string, event: WorkerEvent): void {
    fleet?.send({ type: 'ROUTE', id, event });
  }

  function attachFeed(id: string, paneId: string): void {
    feeds.get(id)?.stop();
    const feed = new PaneFeed({
      host: hostOf(id),
      paneId,
      agent: readerProfile(intentOf(id)),
      analyse,
      log: deps.log,
      clock,
      onReading: (reading) => route(id, { type: 'SCREEN', reading, at: clock.now() }),
      onMissing: (serverUp) => route(id, { type: 'PANE_MISSING', serverUp, at: clock.now() }),
      onExit: (code) => {
        live.set(id, false);
        route(id, { type: 'EXITED', code, at: clock.now() });
      },
    });
    feeds.set(id, feed);
    live.set(id, true);
    feed.start();
  }

  const lastStage = new Map<string, string>();
  const journal = new FleetJournal({
    store: deps.store,
    clock,
    log: deps.log,
    onWorkerChange: (id, snapshot) => {
      known.set(id, snapshot as WorkerSnap);
      updatedAt.set(id, clock.now());
      const v = view(id);
      if (!v) return;
      // After every phase change read the screen again: a reading taken while the worker was in
      // an earlier phase (e.g. the first screen, painted before spawning finished) must be seen.
      if (lastStage.get(id) !== v.stage) {
        lastStage.set(id, v.stage);
        if (FINAL_STAGES.has(v.stage)) feeds.get(id)?.stop();
        else feeds.get(id)?.requestRead();
      }
      for (const l of listeners) l(v);
    },
  });

  const workerLogic = provideWorker({
    ports: deps.ports,
    clock,
    intentOf,
    hostOf,
    resumingSpawn: (id) => resumingSpawn.delete(id),
    paneCreated: attachFeed,
    landing: deps.landing,
    log: deps.log,
    deliverText: (p) =>
      requests.settle(p.requestId, deps.ports.sendText(hostOf(p.id), p.paneId, p.text, { allowNonEmptyBox: p.allowNonEmptyBox })),
    deliverKey: (p) =>
      requests.settle(p.requestId, deps.ports.sendKey(hostOf(p.id), p.paneId, p.key, { allowNonEmptyBox: p.allowNonEmptyBox })),
    refuse: (p) => requests.fail(p.requestId, refusalError(p)),
  });
  const logic = fleetMachine.provide({ actors: { worker: workerLogic } });

  function startFleet(snapshot?: unknown): void {
    fleet = createActor(logic, { inspect: journal.inspect, ...(snapshot ? { snapshot: snapshot as never } : {}) });
    journal.fleetRef = fleet;
    fleet.subscribe({ error: (err) => deps.log?.({ msg: 'fleet actor error', err: String(err) }) });
    journal.enable();
    fleet.start();
  }

  /** Drops a finished worker's actor, row and bookkeeping so its id can be dispatched again. */
  function forget(id: string): void {
    feeds.get(id)?.stop();
    feeds.delete(id);
    fleet?.send({ type: 'FORGET', id });
    deps.store.deleteWorker(id);
    for (const m of [intents, live, updatedAt, known, lastStage] as Map<string, unknown>[]) m.delete(id);
  }

  function requireWorker(id: string): WorkerView {
    const v = view(id);
    if (!v) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}; run hand status to list workers.`, { id });
    return v;
  }

  /** Resolves with the first view (now or later) that `accept` takes. */
  function until(id: string, accept: (v: WorkerView) => boolean): Promise<WorkerView> {
    const now = view(id);
    if (now && accept(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const off = host.subscribe((v) => {
        if (v.id !== id || !accept(v)) return;
        off();
        resolve(v);
      });
    });
  }

  async function command(id: string, make: (requestId: number) => WorkerEvent): Promise<WorkerView> {
    const v = requireWorker(id);
    if (FINAL_STAGES.has(v.stage)) throw new RefusedError('worker-not-running', `worker ${id} is ${v.stage}; it takes no input.`, { id, stage: v.stage });
    const { requestId, done } = requests.open();
    route(id, make(requestId));
    // The machine answers synchronously (deliver or refuse); silence means no state took it.
    requests.failIfUnanswered(requestId, refusalError({ id, requestId, code: 'not-accepting-input', box: '', kind: '' }, v.stage));
    await done;
    return view(id)!;
  }

  const host: FleetHost = {
    async start() {
      const result = await restoreFleet({ store: deps.store, hosts: deps.hosts, intents, known, startFleet, route, attachFeed, live, resumingSpawn, clock, log: deps.log });
      return result;
    },

    async dispatch({ intent, stallMs, unclassifiedMs, firstPrompt, briefGate }) {
      if (!fleet) startFleet();
      const old = view(intent.id);
      if (intents.has(intent.id) && !(old && FINAL_STAGES.has(old.stage))) throw new RefusedError('worker-exists', `a worker named ${intent.id} already exists; pick another id or stop it first (hand stop ${intent.id}).`, { id: intent.id });
      if (!deps.hosts[intent.backend]) throw new RefusedError('backend-unavailable', `the ${intent.backend} terminal host is not available in this daemon.`, { backend: intent.backend });
      // A final worker (or a row skipped as corrupt on restore) gives its id back; the journal stays.
      if (old || deps.store.getWorker(intent.id)) forget(intent.id);
      deps.store.insertWorker(intent);
      intents.set(intent.id, intent);
      fleet!.send({
        type: 'DISPATCH',
        input: { id: intent.id, backend: intent.backend, agent: intent.agent, reportPath: intent.reportPath, firstPrompt, stallMs, ...(unclassifiedMs !== undefined ? { unclassifiedMs } : {}), at: clock.now(), briefGate: briefGate === true },
      });
      const v = await until(intent.id, (x) => !PRE_PANE.has(x.stage));
      if (v.stage === 'failed') throw new RefusedError('dispatch-failed', `worker ${intent.id} failed before it started: ${v.problem ?? 'unknown reason'}`, { id: intent.id, problem: v.problem });
      return v;
    },

    ...gateCommands({ clock, requireWorker, route, until }),
    view,
    views: () => [...intents.keys()].map((id) => view(id)).filter((v): v is WorkerView => v !== null),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    send: (id, text, opts = {}) =>
      command(id, (requestId) => ({ type: 'SEND', text, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId })),
    key: (id, key, opts = {}) =>
      command(id, (requestId) => ({ type: 'KEYS', key, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId })),

    async stop(id, opts = {}) {
      const v = requireWorker(id);
      if (!FINAL_STAGES.has(v.stage)) route(id, { type: 'STOP', at: clock.now(), timeoutMs: opts.timeoutMs ?? 30_000 });
      const end = await until(id, (x) => FINAL_STAGES.has(x.stage) || x.stage === 'teardown.timedOut');
      const paneReusable = end.stage === 'stopped';
      if (paneReusable && end.paneId) {
        // The agent left by /exit: the pane (kept by remain-on-exit) has nothing more to say.
        await hostOf(id).close(end.paneId).catch((err) => deps.log?.({ msg: 'closing pane failed', id, err: String(err) }));
      }
      return { view: end, exitCode: end.exitCode, paneReusable };
    },

    async readScreen(id, opts = {}) {
      const v = requireWorker(id);
      if (!v.paneId) return { ok: false, error: `worker ${id} has no pane yet (stage ${v.stage})` };
      const h = hostOf(id);
      if (opts.scrollback) return h.readScrollback(v.paneId, opts.scrollback);
      const res = await h.readVisible(v.paneId);
      return res.ok ? { ok: true, text: res.screen.lines.map((l) => l.text).join('\n') } : res;
    },

    async shutdown() {
      for (const feed of feeds.values()) feed.stop();
      feeds.clear();
      if (!fleet) return;
      const workers: Record<string, AnyActorRef> = {};
      for (const id of intents.keys()) {
        const ref = workerRef(id);
        if (ref && (ref.getSnapshot() as { status: string }).status !== 'error') workers[id] = ref;
      }
      journal.flush(fleet, workers);
      journal.disable();
      fleet.stop();
      fleet = null;
    },

    async quiesce() {
      for (let i = 0; i < 50; i++) {
        await Promise.all([...feeds.values()].map((f) => f.settled()));
        await new Promise((r) => setImmediate(r));
        if (![...feeds.values()].some((f) => f.busy)) return;
      }
    },
  };
  return host;
}
