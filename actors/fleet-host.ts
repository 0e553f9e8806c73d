/**
 * The fleet host: the running system behind the daemon. One fleet actor (machines/fleet) with
 * one worker actor per worker, fed by their panes and persisted on every transition.
 * The daemon calls only the FleetHost API below; everything else is wiring.
 */
import { createInputLanes } from './input-lane.ts';
import { screenReaderOf } from '../io/agent/profiles/index.ts';
import { createActor, type AnyActorRef } from 'xstate';
import { fleetMachine, workerIdOfSystemId, workerSystemId, type FleetContext } from '../machines/fleet.machine.ts';
import type { WorkerEvent } from '../machines/worker.types.ts';
import { analyseScreen, profileNames } from '../io/screen/index.ts';
import type { Screen, ScreenReading } from '../io/screen/types.ts';
import type { BackendName, Key, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import { RefusedError } from '../contract/errors.ts';
import { backendUnavailable, dispatchFailed, unknownWorker, workerExists } from '../contract/refusals.ts';
import { realClock, type Clock, type LandingPort } from './ports.ts';
import type { WorkerPorts } from '../io/ports/worker-ports.ts';
import { gateCommands, type GateCommands } from './gate-commands.ts';
import { provideWorker } from './worker-logic.ts';
import { createWorkerFeeds } from './worker-feeds.ts';
import { createHostAnswers } from './host-answers.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';
import { FleetJournal } from './fleet-journal.ts';
import { followWorkers } from './follow-workers.ts';
import type { StoreHealth } from '../persistence/commit-queue.ts';
import { buildView, type WorkerView } from './worker-view.ts';
import { CRASHED, meaningOfStage, stagePath } from './condition.ts';
import { Requests, refusalError } from './requests.ts';
import { loadFleet, reattachPanes } from './restore.ts';
import { newRecord, type WorkerRecord, type WorkerSnap } from './worker-record.ts';
import { waitFor } from './wait-for.ts';
import { resumeAnswer, type AnswerResume } from './decision-resume.ts';
import { onInput, onNote, readingFor, turnEndWitnessed, witnessView } from './witness.ts';
import type { HookNote } from '../contract/hook-note.ts';
import { readTranscriptUsage } from '../io/agent/claude/transcript-usage.ts';

export type { WorkerView } from './worker-view.ts';

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

/** How long a caller waits for a reading taken for it (freshView): a read takes a few ms, a loaded tmux more. */
export const FRESH_READ_MS = 1000;

const defaultAnalyse = (screen: Screen, agent: string): ScreenReading =>
  analyseScreen(screen, profileNames().includes(agent.split('@')[0]!) ? agent : 'claude');

/** `claude@2.1.332` when dispatch recorded the version: the reader picks the nearest profile. */
const readerProfile = (intent: WorkerIntent): string => screenReaderOf(intent.agent, intent.agentVersion);

export function createFleetHost(deps: FleetHostDeps): FleetHost {
  const clock = deps.clock ?? realClock;
  const analyse = deps.analyse ?? defaultAnalyse;
  /** One record per worker (actors/worker-record.ts): forgetting a worker is dropping its record. */
  const records = new Map<string, WorkerRecord>();
  /** Workers whose transcript usage is being read (one read each at a time). */
  const usageReads = new Set<string>();
  const listeners = new Set<(v: WorkerView) => void>();
  const requests = new Requests();
  let fleet: ReturnType<typeof createActor<typeof fleetMachine>> | null = null;
  /** Terminal servers that stopped answering, and what their workers then read (actors/host-answers.ts). */
  const answers = createHostAnswers({
    workersOn: (terminal) => [...records.values()].filter((r) => r.feed !== null && terminalFor(r.intent) === terminal).map((r) => r.intent.id),
    silent: (id) => {
      deliverReading(id, unreadableReading());
      publish(id);
    },
    answering: (id) => {
      records.get(id)?.feed?.requestRead();
      publish(id);
    },
    log: deps.log,
  });

  const recordOf = (id: string): WorkerRecord => {
    const record = records.get(id);
    if (!record) throw unknownWorker(id);
    return record;
  };
  const intentOf = (id: string): WorkerIntent => recordOf(id).intent;
  /** Where a worker's panes are: its host's (over ssh) or this machine's host of its backend. */
  const terminalFor = (intent: WorkerIntent): TerminalHost | undefined =>
    intent.host && intent.host !== 'local' ? deps.farHost?.(intent.host) : deps.hosts[intent.backend];
  const readerOfId = (id: string): string => readerProfile(intentOf(id));
  const hostOf = (id: string): TerminalHost => {
    const intent = intentOf(id);
    const host = terminalFor(intent);
    if (!host) throw backendUnavailable(intent.host && intent.host !== 'local' ? `${intent.backend} on ${intent.host}` : intent.backend);
    return host;
  };
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
    const hostProblem = record.intent.host && record.intent.host !== 'local' && meaning.condition !== 'gone' ? (deps.hostProblem?.(record.intent.host) ?? null) : null;
    return buildView({
      intent: record.intent,
      stage,
      meaning,
      context: snap?.context ?? null,
      live: record.live,
      updatedAt: record.updatedAt,
      problem: failed ? (entry?.error ?? 'worker actor failed') : (hostProblem ?? undefined),
      witness: witnessView(record.witness, clock.now()),
      couldNotTell: answers.reasonFor(terminalFor(record.intent)),
      readOnly: record.readOnly,
    });
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

  /** Each worker's pane feeding its actor through the hooks' witness (actors/worker-feeds.ts). */
  const { attachFeed, deliverReading, armDispute, notePaneServer } = createWorkerFeeds({
    records, recordOf, route, hostOf, terminalFor, readerOf: readerProfile, analyse, answers,
    publish: (id) => publish(id), running: () => fleet !== null, store: deps.store, clock, log: deps.log, skipRepaints: deps.skipRepaints,
  });

  const journal = new FleetJournal({ store: deps.store, clock, log: deps.log });

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
  let unfollow: (() => void) | null = null;

  const lanes = createInputLanes();
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
      attachFeed(id, paneId);
      notePaneServer(id).catch((err: unknown) => deps.log?.({ msg: 'the tmux server of a new pane could not be noted', id, err: String(err) }));
    },
    landing: deps.landing,
    log: deps.log,
    // Input into the pane: a turn-end word from before it is about an earlier turn (witness.ts).
    inputGoing: (id) => {
      const record = records.get(id);
      if (record) onInput(record.witness, clock.now());
    },
    deliverText: (p) => {
      // A decision's answer: its Enter marked first, as the first prompt's (decision-resume.ts).
      const mark = p.decision !== undefined && deps.ports.markDecision ? { decision: p.decision, beforeEnter: () => deps.ports.markDecision!(intentOf(p.id), p.paneId, p.decision!) } : {};
      requests.settle(p.requestId, deps.ports.sendText(hostOf(p.id), p.paneId, p.text, { allowNonEmptyBox: p.allowNonEmptyBox, label: p.id, agent: readerOfId(p.id), ...mark }));
    },
    deliverKey: (p) =>
      requests.settle(p.requestId, deps.ports.sendKey(hostOf(p.id), p.paneId, p.key, { allowNonEmptyBox: p.allowNonEmptyBox, agent: readerOfId(p.id) })),
    refuse: (p) => requests.fail(p.requestId, refusalError(p)),
  });
  const logic = fleetMachine.provide({ actors: { worker: workerLogic } });

  function startFleet(snapshot?: unknown): void {
    fleet = createActor(logic, { inspect: journal.inspect, ...(snapshot ? { snapshot: snapshot as never } : {}) });
    journal.fleetRef = fleet;
    fleet.subscribe({ error: (err) => deps.log?.({ msg: 'fleet actor error', err: String(err) }) });
    journal.enable();
    fleet.start();
    unfollow = followWorkers(fleet, {
      workerIdOf: (ref) => workerIdOfSystemId((ref as { systemId?: string }).systemId),
      onSnapshot: (id, snapshot) => onWorkerSnapshot(id, snapshot as WorkerSnap),
    });
  }

  /** Drops a finished worker's actor, row and record so its id can be dispatched again. */
  function forget(id: string): void {
    records.get(id)?.feed?.stop();
    records.delete(id);
    fleet?.send({ type: 'FORGET', id });
    deps.store.deleteWorker(id);
  }

  function requireWorker(id: string): WorkerView {
    const v = view(id);
    if (!v) throw unknownWorker(id);
    return v;
  }

  /** Resolves with the first view (now or later) that `accept` takes. */
  const until = (id: string, accept: (v: WorkerView) => boolean): Promise<WorkerView> =>
    waitFor(host, id, accept).then(({ view }) => view!);

  async function command(id: string, make: (requestId: number) => WorkerEvent): Promise<WorkerView> {
    const v = requireWorker(id);
    if (v.condition === 'gone') throw new RefusedError('worker-not-running', `worker ${id} is ${v.stage}; it takes no input.`, { id, stage: v.stage });
    const { requestId, done } = requests.open();
    route(id, make(requestId));
    // The machine answers synchronously (deliver or refuse); silence means no state took it.
    requests.failIfUnanswered(requestId, refusalError({ id, requestId, code: 'not-accepting-input', box: '', kind: '' }, v.stage));
    await done;
    return view(id)!;
  }

  const publish = (id: string): void => {
    const v = view(id);
    if (v) for (const l of listeners) l(v);
  };

  const feeds = () => [...records.values()].flatMap((r) => (r.feed ? [r.feed] : []));

  const host: FleetHost = {
    async start() {
      const t0 = performance.now();
      const loaded = loadFleet(deps.store, deps.log, clock.now());
      for (const record of loaded.records) records.set(record.intent.id, record);
      const t1 = performance.now();
      startFleet(loaded.fleetSnapshot);
      const t2 = performance.now();
      await reattachPanes(loaded.panes, { hostFor: terminalFor, clock, recordOf, route, attachFeed, log: deps.log, ...(deps.serverGone && { serverGone: deps.serverGone }) });
      const ms = (a: number, b: number) => Math.round(b - a);
      return { restored: loaded.restored, skipped: loaded.skipped, took: { loadMs: ms(t0, t1), actorsMs: ms(t1, t2), reattachMs: ms(t2, performance.now()) } };
    },

    async dispatch({ intent, stallMs, unclassifiedMs, firstPrompt, briefGate }) {
      if (!fleet) startFleet();
      const old = view(intent.id);
      if (records.has(intent.id) && !(old && old.condition === 'gone')) throw workerExists(intent.id, old?.stage ?? 'unknown');
      if (!terminalFor(intent)) throw backendUnavailable(intent.host && intent.host !== 'local' ? `${intent.backend} on ${intent.host}` : intent.backend);
      // A final worker (or a row skipped as corrupt on restore) gives its id back; the journal stays.
      if (old || deps.store.getWorker(intent.id)) forget(intent.id);
      deps.store.insertWorker(intent);
      records.set(intent.id, newRecord(intent));
      fleet!.send({
        type: 'DISPATCH',
        input: { id: intent.id, backend: intent.backend, agent: intent.agent, reportPath: intent.reportPath, firstPrompt, stallMs, ...(unclassifiedMs !== undefined ? { unclassifiedMs } : {}), at: clock.now(), briefGate: briefGate === true },
      });
      const v = await until(intent.id, (x) => x.condition !== 'making');
      if (v.marks.includes('failed')) throw dispatchFailed(intent.id, v.problem);
      return v;
    },

    ...gateCommands({ clock, requireWorker, route, until }),
    view,
    storeHealth: () => journal.storeHealth,
    views: () => [...records.keys()].map((id) => view(id)).filter((v): v is WorkerView => v !== null),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    inLane: (id, fn) => lanes.run(id, fn),
    send: (id, text, opts = {}) =>
      command(id, (requestId) => ({ type: 'SEND', text, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId, ...(opts.decision !== undefined && { decision: opts.decision }) })),

    answerWentIn(id) {
      route(id, { type: 'ANSWER_IN', at: clock.now() });
    },

    async resumeAnswer(id, answer, key) {
      const v = requireWorker(id);
      if (!v.paneId || v.live !== true) return 'none';
      const terminal = hostOf(id);
      const agent = readerOfId(id);
      const paneId = v.paneId;
      const resumed = await resumeAnswer({
        host: terminal, paneId, agent,
        marked: deps.ports.decisionMarked?.(intentOf(id), paneId) === key,
        press: async (k) => {
          const record = records.get(id);
          if (record) onInput(record.witness, clock.now());
          await deps.ports.sendKey(terminal, paneId, k, { allowNonEmptyBox: true, agent });
        },
      }, answer);
      // The machine guards the next send on its own reading: it must have seen the cleared box.
      if (resumed === 'rolled-back') await waitFor(host, id, (x) => x.promptBox === '', { timeoutMs: 5000 });
      return resumed;
    },
    key: (id, key, opts = {}) =>
      command(id, (requestId) => ({ type: 'KEYS', key, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId })),

    async stop(id, opts = {}) {
      const v = requireWorker(id);
      if (v.condition !== 'gone') route(id, { type: 'STOP', at: clock.now(), timeoutMs: opts.timeoutMs ?? 30_000 });
      const end = await until(id, (x) => x.condition === 'gone' || x.condition === 'stuck');
      const paneReusable = end.marks.includes('exited-cleanly');
      if (paneReusable && end.paneId) {
        // The agent left by /exit: the pane (kept by remain-on-exit) has nothing more to say.
        await hostOf(id).close(end.paneId).catch((err) => deps.log?.({ msg: 'closing pane failed', id, err: String(err) }));
      }
      return { view: end, exitCode: end.exitCode, paneReusable };
    },

    async freshView(id, boundMs = FRESH_READ_MS) {
      const feed = records.get(id)?.feed;
      if (feed) {
        feed.requestRead();
        let timer: unknown;
        await Promise.race([feed.settled(), new Promise<void>((r) => (timer = clock.setTimeout(r, boundMs)))]);
        clock.clearTimeout(timer);
      }
      return view(id);
    },

    async readScreen(id, opts = {}) {
      const v = requireWorker(id);
      if (!v.paneId) return { ok: false, error: `worker ${id} has no pane yet (stage ${v.stage})` };
      const h = hostOf(id);
      // Never past the host's bound: a stopped server makes the read "could not tell", not a hang.
      const silent = (reason: string) => ({ ok: false as const, error: `could not tell: ${reason}` });
      if (opts.scrollback) return answers.whileAnswering(h, h.readScrollback(v.paneId, opts.scrollback), silent);
      const res = await answers.whileAnswering(h, h.readVisible(v.paneId), silent);
      return res.ok ? { ok: true, text: res.screen.lines.map((l) => l.text).join('\n') } : res;
    },

    async release(id) {
      const v = requireWorker(id);
      if (v.condition !== 'gone') throw new RefusedError('worker-not-finished', `worker ${id} is ${v.stage}; stop it first (hand stop ${id}).`, { id, stage: v.stage });
      let paneClosed = false;
      if (v.paneId && terminalFor(intentOf(id))) {
        await hostOf(id).close(v.paneId);
        paneClosed = true;
      }
      forget(id);
      return { paneClosed };
    },

    async shutdown() {
      answers.dispose();
      for (const record of records.values()) {
        record.feed?.stop();
        record.feed = null;
      }
      if (!fleet) return;
      const workers: Record<string, AnyActorRef> = {};
      for (const id of records.keys()) {
        const ref = workerRef(id);
        if (ref && (ref.getSnapshot() as { status: string }).status !== 'error') workers[id] = ref;
      }
      unfollow?.();
      unfollow = null;
      await journal.flush(fleet, workers);
      journal.disable();
      fleet.stop();
      fleet = null;
    },

    async hook(note) {
      const record = recordOf(note.id);
      const w = record.witness;
      if (onNote(w, note, clock.now())) {
        const reading = readingFor(w);
        // The turn-end word for the screen already shown: the machine need not wait out its quiet time.
        if (reading) route(note.id, { type: 'SCREEN', reading, at: clock.now(), ...(turnEndWitnessed(w) ? { turnEnded: true } : {}) });
      }
      armDispute(note.id);
      publish(note.id);
      // Usage is read after the answer: the hook that brought the path is not kept waiting on it.
      // One read per worker at a time: a worker's hooks cannot make the daemon hold many copies of
      // a large transcript at once (the path is the worker's word, issue 37).
      if (note.transcriptPath && !usageReads.has(note.id)) {
        usageReads.add(note.id);
        void readTranscriptUsage(note.transcriptPath)
          .then((usage) => {
            if (!usage || records.get(note.id) !== record) return;
            w.tokens = usage;
            publish(note.id);
          })
          .finally(() => usageReads.delete(note.id));
      }
      return view(note.id)!;
    },

    hostConnection(name, state) {
      for (const [id, record] of records) {
        if (record.intent.host !== name) continue;
        const v = view(id);
        // Only a worker with a pane in a state that reads one: a gate, a landing or a stop keep theirs.
        if (!v || v.condition === 'gone' || !v.paneId || /^(gate|landing|teardown|admission)/.test(v.stage)) continue;
        if (state === 'lost') route(id, { type: 'PANE_MISSING', serverUp: false, at: clock.now() });
        else record.feed?.requestRead();
        publish(id);
      }
    },

    async quiesce() {
      for (let i = 0; i < 50; i++) {
        await Promise.all(feeds().map((f) => f.settled()));
        await new Promise((r) => setImmediate(r));
        if (!feeds().some((f) => f.busy)) return;
      }
    },
  };
  return host;
}
