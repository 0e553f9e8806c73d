/**
 * The fleet host: the running system behind the daemon. One fleet actor (machines/fleet) with
 * one worker actor per worker, fed by their panes and persisted on every transition.
 * The daemon calls only the FleetHost API below; everything else is wiring (createFleetHost).
 */
import { fleetMachine } from '../machines/fleet.machine.ts';
import { analyseScreen, profileNames } from '../io/screen/index.ts';
import type { Screen, ScreenReading } from '../io/screen/types.ts';
import type { BackendName, Key, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import { dispatchFailed, workerExists } from '../contract/refusals.ts';
import type { HookNote } from '../contract/hook-note.ts';
import type { WorkerPorts } from '../io/ports/worker-ports.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';
import { realClock, type Clock, type LandingPort } from './ports.ts';
import type { StoreHealth } from '../persistence/commit-queue.ts';
import { gateCommands, type GateCommands } from './gate-commands.ts';
import { provideWorker } from './worker-logic.ts';
import { createWorkerFeeds } from './worker-feeds.ts';
import { createHostAnswers } from './host-answers.ts';
import { FleetJournal } from './fleet-journal.ts';
import { createFleetRegistry, readerProfile } from './fleet-registry.ts';
import { createWorkerCommands } from './worker-commands.ts';
import { hooksAndHostConnections } from './hooks-and-host-connections.ts';
import { loadFleet, reattachPanes } from './restore.ts';
import { newRecord } from './worker-record.ts';
import type { WorkerView } from './worker-view.ts';
import type { AnswerResume } from './decision-resume.ts';

export type { WorkerView } from './worker-view.ts';
export { FRESH_READ_MS } from './worker-commands.ts';

export interface FleetHostDeps {
  store: FleetStore;
  hosts: Partial<Record<BackendName, TerminalHost>>;
  /** The terminal host on a machine reached over ssh, by host name (issue 28); undefined when there is none such. */
  farHost?(name: string): TerminalHost | undefined;
  ports: WorkerPorts;
  /** How approved landings are performed (io/git through daemon/gates/landing.ts). */
  landing?: LandingPort;
  clock?: Clock;
  log?: (obj: Record<string, unknown>) => void;
  /** Screen analysis (default: io/screen's profile for the agent; 'mock' renders Claude Code's screens). */
  analyse?: (screen: Screen, agent: string) => ScreenReading;
  /** Bursts of known repaints go unread (actors/pane-feed.ts); default true. */
  skipRepaints?: boolean;
  /**
   * Why a far host cannot be told about now, in the person's words with the fix (its key changed:
   * daemon/hosts/far-hosts.ts), or null: every worker on it says so as its problem.
   */
  hostProblem?(host: string): string | null;
  /** Why a restored worker's terminal server is gone for certain, or null (actors/restore.ts). */
  serverGone?(intent: WorkerIntent): string | null;
}

export interface FleetHost extends GateCommands {
  /** Restores the stored fleet; `took` says where the time went (store read, actors started, panes re-attached). */
  start(): Promise<{ restored: string[]; skipped: { id: string; reason: string }[]; took: { loadMs: number; actorsMs: number; reattachMs: number } }>;
  /** briefGate: the worker waits at the dispatch gate before anything is created (non-yolo projects). */
  dispatch(req: { intent: WorkerIntent; stallMs: number; unclassifiedMs?: number; firstPrompt: string; briefGate?: boolean }): Promise<WorkerView>;
  view(id: string): WorkerView | null;
  views(): WorkerView[];
  subscribe(listener: (view: WorkerView) => void): () => void;
  /** `decision`: the text is that decision's answer; its Enter is marked first (io/brief/submission-mark.ts). */
  send(id: string, text: string, opts?: { allowNonEmptyBox?: boolean; decision?: string }): Promise<WorkerView>;
  /**
   * Before a decision's answer is typed (again): what an earlier daemon left of it in the pane,
   * finished or cleared (actors/decision-resume.ts). Call it in the worker's input lane.
   */
  resumeAnswer(id: string, answer: string, key: string): Promise<AnswerResume>;
  /** A parked worker's answer went in before a restart (resumeAnswer found it entered or sent): it is at work on it. */
  answerWentIn(id: string): void;
  key(id: string, key: Key, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerView>;
  /**
   * Runs `fn` in the worker's input lane (actors/input-lane.ts): whatever types into a worker —
   * a send, a key, a whole answer, a decision's delivery, a stop — goes through it, one caller at
   * a time, in order.
   */
  inLane<T>(id: string, fn: () => Promise<T>): Promise<T>;
  stop(id: string, opts?: { timeoutMs?: number }): Promise<{ view: WorkerView; exitCode: number | null; paneReusable: boolean }>;
  readScreen(id: string, opts?: { scrollback?: number }): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  /**
   * The worker's view after a reading of its pane taken now (at most `boundMs` awaited): what a
   * caller is told at once must not be a reading the screen has since left behind (under load a
   * feed's read of a small burst waits its turn; `hand wait` said blocked on a menu already gone).
   */
  freshView(id: string, boundMs?: number): Promise<WorkerView | null>;
  /** Closes a finished worker's pane (if any) and frees its id; the journal stays (hand discard). */
  release(id: string): Promise<{ paneClosed: boolean }>;
  shutdown(): Promise<void>;
  /** A worker's Claude Code hook spoke (hand hook → the daemon, or the queue at start). */
  hook(note: HookNote): Promise<WorkerView>;
  /** Null while the state database takes writes; else why not (locked, full), since when, how many transitions wait. */
  storeHealth(): StoreHealth | null;
  /** Tests: resolves once every pane read requested so far has reached its worker. */
  quiesce(): Promise<void>;
  /**
   * A far host's connection refused us for a reason of the host's own (its key changed, issue 43):
   * 'lost' makes every worker on it with a pane could-not-tell now, not only those whose next read
   * fails; 'back' has each of them read its screen again at once.
   */
  hostConnection(host: string, state: 'lost' | 'back'): void;
}

const defaultAnalyse = (screen: Screen, agent: string): ScreenReading =>
  analyseScreen(screen, profileNames().includes(agent.split('@')[0]!) ? agent : 'claude');

/**
 * Assembles the host from its parts, one job a file: the registry of records, the fleet actor and
 * the views (actors/fleet-registry.ts); each pane feeding its worker (actors/worker-feeds.ts); the
 * terminal servers' silences (actors/host-answers.ts); the commands into a worker
 * (actors/worker-commands.ts) and at its gates (actors/gate-commands.ts); hooks and far hosts'
 * connections (actors/hooks-and-host-connections.ts); the restore (actors/restore.ts). Here stay
 * the wiring and the fleet's own life: start, dispatch, shutdown.
 */
export function createFleetHost(deps: FleetHostDeps): FleetHost {
  const clock = deps.clock ?? realClock;
  const analyse = deps.analyse ?? defaultAnalyse;
  const journal = new FleetJournal({ store: deps.store, clock, log: deps.log });
  const registry = createFleetRegistry({
    hosts: deps.hosts, farHost: deps.farHost, hostProblem: deps.hostProblem,
    couldNotTell: (terminal) => answers.reasonFor(terminal),
    store: deps.store, journal, clock, log: deps.log,
  });
  const { records, recordOf, intentOf, terminalFor, hostOf, route, publish, view, requireWorker, until } = registry;
  /** Terminal servers that stopped answering, and what their workers then read (actors/host-answers.ts). */
  const answers = createHostAnswers({
    workersOn: (terminal) => [...records.values()].filter((r) => r.feed !== null && terminalFor(r.intent) === terminal).map((r) => r.intent.id),
    silent: (id) => {
      feeds.deliverReading(id, unreadableReading());
      publish(id);
    },
    answering: (id) => {
      records.get(id)?.feed?.requestRead();
      publish(id);
    },
    log: deps.log,
  });

  /** Each worker's pane feeding its actor through the hooks' witness (actors/worker-feeds.ts). */
  const feeds = createWorkerFeeds({
    records, recordOf, route, hostOf, terminalFor, readerOf: readerProfile, analyse, answers,
    publish, running: registry.running, store: deps.store, clock, log: deps.log, skipRepaints: deps.skipRepaints,
  });

  const { commands, delivery } = createWorkerCommands({ registry, answers, ports: deps.ports, clock, log: deps.log });
  const workerLogic = provideWorker({
    ports: deps.ports,
    clock,
    intentOf,
    hostOf,
    resumingSpawn: (id) => {
      const record = recordOf(id);
      const resuming = record.resumingSpawn;
      record.resumingSpawn = false;
      return resuming;
    },
    paneCreated: (id, paneId) => {
      feeds.attachFeed(id, paneId);
      feeds.notePaneServer(id).catch((err: unknown) => deps.log?.({ msg: 'the tmux server of a new pane could not be noted', id, err: String(err) }));
    },
    landing: deps.landing,
    log: deps.log,
    ...delivery,
  });
  const logic = fleetMachine.provide({ actors: { worker: workerLogic } });

  const paneFeeds = () => [...records.values()].flatMap((r) => (r.feed ? [r.feed] : []));

  return {
    async start() {
      const t0 = performance.now();
      const loaded = loadFleet(deps.store, deps.log, clock.now());
      for (const record of loaded.records) records.set(record.intent.id, record);
      const t1 = performance.now();
      registry.startFleet(logic, loaded.fleetSnapshot);
      const t2 = performance.now();
      await reattachPanes(loaded.panes, { hostFor: terminalFor, clock, recordOf, route, attachFeed: feeds.attachFeed, log: deps.log, ...(deps.serverGone && { serverGone: deps.serverGone }) });
      const ms = (a: number, b: number) => Math.round(b - a);
      return { restored: loaded.restored, skipped: loaded.skipped, took: { loadMs: ms(t0, t1), actorsMs: ms(t1, t2), reattachMs: ms(t2, performance.now()) } };
    },

    async dispatch({ intent, stallMs, unclassifiedMs, firstPrompt, briefGate }) {
      if (!registry.running()) registry.startFleet(logic);
      const old = view(intent.id);
      if (records.has(intent.id) && !(old && old.condition === 'gone')) throw workerExists(intent.id, old?.stage ?? 'unknown');
      registry.requireTerminal(intent);
      // A final worker (or a row skipped as corrupt on restore) gives its id back; the journal stays.
      if (old || deps.store.getWorker(intent.id)) registry.forget(intent.id);
      deps.store.insertWorker(intent);
      records.set(intent.id, newRecord(intent));
      registry.sendFleet({
        type: 'DISPATCH',
        input: { id: intent.id, backend: intent.backend, agent: intent.agent, reportPath: intent.reportPath, firstPrompt, stallMs, ...(unclassifiedMs !== undefined ? { unclassifiedMs } : {}), at: clock.now(), briefGate: briefGate === true },
      });
      const v = await until(intent.id, (x) => x.condition !== 'making');
      if (v.marks.includes('failed')) throw dispatchFailed(intent.id, v.problem);
      return v;
    },

    ...gateCommands({ clock, requireWorker, route, until }),
    ...commands,
    ...hooksAndHostConnections({ registry, feeds, clock }),
    view,
    views: registry.views,
    subscribe: registry.subscribe,
    storeHealth: () => journal.storeHealth,

    async shutdown() {
      answers.dispose();
      for (const record of records.values()) {
        record.feed?.stop();
        record.feed = null;
      }
      await registry.stopFleet();
    },

    async quiesce() {
      for (let i = 0; i < 50; i++) {
        await Promise.all(paneFeeds().map((f) => f.settled()));
        await new Promise((r) => setImmediate(r));
        if (!paneFeeds().some((f) => f.busy)) return;
      }
    },
  };
}
