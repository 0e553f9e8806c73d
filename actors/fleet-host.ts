/**
 * The fleet host: the running system behind the daemon. One fleet actor (machines/fleet) with
 * one worker actor per worker, fed by their panes and persisted on every transition.
 * The daemon calls only the FleetHost API (actors/fleet-host-interface.ts); everything else is wiring.
 */
import { fleetMachine } from '../machines/fleet.machine.ts';
import { analyseScreen, profileNames } from '../io/screen/index.ts';
import type { Screen, ScreenReading } from '../io/screen/types.ts';
import type { BackendName, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import { dispatchFailed, workerExists } from '../contract/refusals.ts';
import type { WorkerPorts } from '../io/ports/worker-ports.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';
import { realClock, type Clock, type LandingPort } from './ports.ts';
import { gateCommands } from './gate-commands.ts';
import type { FleetHost } from './fleet-host-interface.ts';
import { provideWorker } from './worker-logic.ts';
import { createWorkerFeeds } from './worker-feeds.ts';
import { createHostAnswers } from './host-answers.ts';
import { FleetJournal } from './fleet-journal.ts';
import { createFleetRegistry, readerProfile } from './fleet-registry.ts';
import { createWorkerCommands } from './worker-commands.ts';
import { hooksAndHostConnections } from './hooks-and-host-connections.ts';
import { loadFleet, beginReattach, reattachPanes } from './restore.ts';
import { newRecord } from './worker-record.ts';

export type { WorkerView } from './worker-view.ts';
export type { FleetHost } from './fleet-host-interface.ts';
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
      // The hosts' questions go out before the actors are made (restore.ts beginReattach says why).
      const begun = beginReattach(loaded.panes, { hostFor: terminalFor, recordOf });
      const t1 = performance.now();
      registry.startFleet(logic, loaded.fleetSnapshot);
      const t2 = performance.now();
      await reattachPanes(loaded.panes, { hostFor: terminalFor, clock, recordOf, route, attachFeed: feeds.attachFeed, log: deps.log, ...(deps.serverGone && { serverGone: deps.serverGone }) }, begun);
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
