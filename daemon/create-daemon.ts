/**
 * The daemon as a library: `createDaemon(deps) → { methods, close }`. Everything that hosts the
 * fleet is built here — the store, the terminal hosts, the fleet actor, the review page, the work
 * stores — and nothing here touches `process.*`: the environment, the pid, the log and the way to
 * ask for a shutdown are injected. `runDaemon` (main.ts) is the thin process shell around it (the
 * lock, pino, signals, exit); tests build it in process on a temp home (tests/helpers/daemon-world.ts)
 * and call its methods through the same socket server and client the CLI uses.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { HomePaths } from '../contract/home.ts';
import { openStore } from '../persistence/sqlite-store.ts';
import { createTmuxHost } from '../io/terminal/tmux/tmux-host.ts';
import { answerBoundOf } from '../io/terminal/server-answers.ts';
import { createPtyHost } from '../io/terminal/pty/pty-host.ts';
import type { BackendName, TerminalHost } from '../io/terminal/types.ts';
import { repoFacts, repoTopLevel, resolveBaseRefAt } from '../io/git/index.ts';
import { agentProfile } from '../io/agent/profiles/index.ts';
import { agentVersion } from '../io/agent/agent-version.ts';
import { createOverlapReader } from './fleet/overlaps.ts';
import { createFleetHost } from '../actors/fleet-host.ts';
import { createRealPorts } from '../io/ports/real-ports.ts';
import { recordBaseIfNew } from './fleet/base-watch.ts';
import { probeSandboxOnce, type SandboxAvailability } from '../io/sandbox/availability.ts';
import { makeHandlers } from './fleet/handlers.ts';
import { closeHostConnections, hostHandlers } from './hosts/host-handlers.ts';
import { openHostStore } from '../persistence/host-store.ts';
import { createFarHosts } from './hosts/far-hosts.ts';
import { createFarPorts } from './hosts/far-ports.ts';
import { planFarWorker } from './hosts/far-dispatch.ts';
import type { PlaceOf } from './gates/landing.ts';
import { createMethods, PARAM_PARSERS } from './method-table.ts';
import { serveMethods, type MethodTable, type ServedMethods } from '../contract/protocol.ts';
import { createOptionalHerdrHost } from './herdr-option.ts';
import { createLandingPort, landingHandlers, type CallerPaths } from './gates/landing.ts';
import { hostReview } from '../actors/review/wiring.ts';
import { createPhoneLinks } from '../actors/phone/phone-links.ts';
import { SNAPSHOT_VERSION } from '../actors/snapshot-codec.ts';
import { hostScreens } from '../actors/review/stream.ts';
import { pictureHandlers } from './gates/fleet-picture.ts';
import { installWork } from './work/work-install.ts';
import { projectHandlers } from './fleet/project-handlers.ts';
import { openBaseTips } from '../persistence/base-tips.ts';
import { createBaseNotices } from './fleet/base-notices.ts';
import { openAnnotationStore } from '../persistence/annotation-store.ts';
import { createAnnotationNotices } from './annotations/annotation-notices.ts';
import { annotationHandlers } from './annotations/annotation-handlers.ts';
import { discardHandlers } from './gates/discard-handlers.ts';
import { relaunchHandlers } from './gates/relaunch-handlers.ts';
import { liveWorkerIds, shutTmuxIfIdle, type TmuxOutcome } from './daemon-stop.ts';
import { keepStateRecord, openCheckedStore } from './state-record.ts';
import { applyFaultHolds, FAULT_HOLD_ENV, parseFaultHolds } from './fault-holds.ts';
import { drainHookQueue, hookHandlers, watchHookQueue } from './fleet/hook-handlers.ts';
import type { HookNote } from '../contract/hook-note.ts';
import { createSessionKeeper } from './sessions/session-keeper.ts';
import { sessionHandlers } from './sessions/session-handlers.ts';
import { NO_PROGRESS, resumeLostOfAutoProjects } from './sessions/auto-resume.ts';
import { tmuxServerGone } from '../io/terminal/tmux/server-gone.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { FleetHostApi } from '../actors/fleet-api.ts';
import { COMMIT_BUSY_TIMEOUT_MS } from '../persistence/commit-queue.ts';
import { CALIBRATE_AUTO_ENV, createCalibrator } from './calibration/calibrate-handler.ts';
import { calibrationStandingOf, calibrationStandings } from '../io/agent/calibration-standing.ts';
import { useCommandRunner } from '../io/process/runner.ts';

export type DaemonLog = (level: 'info' | 'warn' | 'error', obj: Record<string, unknown>, msg: string) => void;

export interface DaemonDeps {
  paths: HomePaths;
  /** The daemon's own environment (fault holds, herdr, notification timeouts, the fallback caller env). */
  env: Record<string, string | undefined>;
  /** The pid `ping` and `shutdown` report (the process shell's; a test world passes its own). */
  pid: number;
  log: DaemonLog;
  /** `hand daemon stop` asks for this; the shell decides what a shutdown means (close, then exit). */
  requestShutdown(): void;
  /** Whether tmux can run here (detected when not given). */
  tmuxAvailable?: boolean;
  /** How long the hosting process has run (ms), for the restore's log line; absent in a test world. */
  processUptimeMs?: () => number;
}

export interface Daemon {
  /** Every method, typed: its parsed params in, its result out (for callers in process). */
  methods: MethodTable;
  /** The same methods behind their edge parsers, by name: what the socket and the review page serve. */
  served: ServedMethods;
  fleet: FleetHostApi;
  /** Stops the fleet (tmux panes outlive it), the page, the work watch; closes the store. Idempotent. */
  close(): Promise<{ tmux: TmuxOutcome | string; live: string[] }>;
}

/** Why a local tmux worker's server is gone for certain (io/terminal/tmux/server-gone.ts), or null. */
function localTmuxServerGone(intent: WorkerIntent): string | null {
  if ((intent.host && intent.host !== 'local') || intent.backend !== 'tmux' || !intent.paneServer) return null;
  return tmuxServerGone(intent.paneServer) ? `its tmux server (${intent.paneServer.split('.')[0]}) no longer runs: the machine restarted or the server was killed; its conversation can be resumed (hand resume ${intent.id})` : null;
}

/** Whether `tmux` runs from this process's PATH; asked once a process and PATH (a start forks the process). */
const tmuxFound = new Map<string, boolean>();
function hasTmux(): boolean {
  const path = process.env.PATH ?? '';
  let found = tmuxFound.get(path);
  if (found === undefined) {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore', timeout: 5000 });
      found = true;
    } catch {
      found = false;
    }
    tmuxFound.set(path, found);
  }
  return found;
}

export async function createDaemon(deps: DaemonDeps): Promise<Daemon> {
  const { paths } = deps;
  const info = (obj: Record<string, unknown>, msg?: string) => deps.log('info', obj, msg ?? String(obj.msg ?? obj.event ?? 'event'));
  const warn = (obj: Record<string, unknown>, msg: string) => deps.log('warn', obj, msg);
  const startedAt = Date.now();
  // Its git commands are started by a small process of its own: a fork of the daemon held its thread ~15 ms each (io/process/runner.ts).
  useCommandRunner();
  // A lost or damaged database is refused (naming the backup), never read as an empty fleet.
  const stateRecord = keepStateRecord(openCheckedStore({ home: paths.home, db: paths.db }, (db) => openStore(db, { busyTimeoutMs: COMMIT_BUSY_TIMEOUT_MS })), { home: paths.home, db: paths.db }, warn);
  const store = stateRecord.store;
  const hosts: Partial<Record<BackendName, TerminalHost>> = {};
  const tmuxAvailable = deps.tmuxAvailable ?? hasTmux();
  // How long a terminal server may stay silent before its workers read "could not tell" (HAND_SERVER_ANSWER_MS).
  const answerBoundMs = answerBoundOf(deps.env);
  // KH_READ_LANES=0: every read straight to tmux, unordered (the bench's baseline for issue 46).
  const readsInFlight = deps.env.KH_READ_LANES === '0' ? Infinity : undefined;
  // KH_REPAINT_KEY=line: a repaint key per %output line, as tmux cut it (the bench's baseline for issue 46's cut frames).
  const repaintKeyPerLine = deps.env.KH_REPAINT_KEY === 'line';
  const tmuxHost = tmuxAvailable ? createTmuxHost({ socketPath: paths.tmuxSocket, answerBoundMs, readsInFlight, repaintKeyPerLine, onNotice: (msg, fields) => warn(fields, msg) }) : undefined;
  if (tmuxHost) hosts.tmux = tmuxHost;
  // Its launch files wait in the state directory, as tmux's do: a daemon killed with SIGKILL
  // cannot remove a private temp directory, and each left one behind in /tmp.
  hosts.pty = createPtyHost({ launchDir: join(paths.home, 'launch', 'pty') });
  // In the state directory beside the pty host's: a daemon that is killed leaves no private
  // directory in the machine's temp dir behind (its dispose removes only one it made there).
  const herdr = await createOptionalHerdrHost(deps.env, join(paths.home, 'launch', 'herdr'));
  if (herdr) hosts.herdr = herdr;
  // kingshand's worker sandbox (issue 37): asked of the machine once, when a dispatch, a relaunch
  // or a calibration first needs the answer, not at start: a trial sandbox is two bubblewrap runs,
  // and a daemon started for a status, a landing or a stop never needs it.
  let probed: SandboxAvailability | null = null;
  const sandbox = (): SandboxAvailability => {
    if (probed) return probed;
    probed = probeSandboxOnce(deps.env);
    if (!probed.ok) warn({ reason: probed.reason, fix: probed.fix }, 'workers run without kingshand\'s sandbox: posture off is refused');
    return probed;
  };
  const baseTips = openBaseTips(paths.home);
  const baseNotices = createBaseNotices(baseTips);
  // The person's notes on what they decide on (issue 40): in the fleet database, each new one a wake.
  const annotations = openAnnotationStore(paths.db);
  const annotationNotices = createAnnotationNotices(annotations, (worker) => store.getWorker(worker)?.project ?? '');
  const ports = createRealPorts({
    fallbackEnv: deps.env,
    stateDir: paths.home,
    recordBase: (repo, base) => recordBaseIfNew(baseTips, repo, base, Date.now()),
    onBaseGuard: (repo, g) => {
      if (g.outcome === 'installed') info({ repo, hook: g.path, guarded: g.guarded }, 'base guard installed');
      else if (g.outcome === 'foreign' || g.outcome === 'not-guarded') warn({ repo, hook: g.path, why: g.why }, 'base guard not installed');
    },
    postureOf: (intent) => store.getProject(intent.project)?.permissions ?? 'off',
    log: (obj) => warn(obj, String(obj.msg ?? 'first prompt')),
    sandbox,
  });
  applyFaultHolds(parseFaultHolds(deps.env[FAULT_HOLD_ENV]), ports, hosts, warn);
  // Machines the fleet reaches over ssh (issue 28): their rows, their connections and tmux servers.
  const hostStore = openHostStore(paths.db);
  const farHosts = createFarHosts({ hosts: hostStore, home: paths.home, answerBoundMs, onNotice: (msg, fields) => warn(fields, msg) });
  const placeOf: PlaceOf = (w) => (w.host && w.host !== 'local' ? farHosts.get(w.host).target : null);
  // The PATH of each worker's last land/approve, for the landing that runs inside its machine.
  const callerPaths: CallerPaths = new Map();
  const fleet = createFleetHost({
    store,
    hosts,
    farHost: (name) => farHosts.terminal(name),
    ports: createFarPorts(ports, farHosts, (intent) => store.getProject(intent.project)?.permissions ?? 'off'),
    landing: createLandingPort({ store, env: deps.env, callerPaths, baseTips, placeOf }),
    log: (obj) => info(obj),
    // KH_REPAINT_FILTER=0 reads every burst (the bench's baseline for issue 26).
    skipRepaints: deps.env.KH_REPAINT_FILTER !== '0',
    // A far host whose key changed is every one of its workers' reason (issue 43).
    hostProblem: (name) => {
      const k = farHosts.keyChanged(name);
      return k ? `could not tell — ${k.reason}. Fix: ${k.fix}` : null;
    },
    // A pane whose tmux server no longer runs (a reboot, a killed server) is lost, not "could not tell" (issue 41).
    serverGone: localTmuxServerGone,
  });
  // Its workers could-not-tell at once when the key is found changed; they look again once it is accepted.
  farHosts.onKeyCondition((name, state) => fleet.hostConnection(name, state === 'changed' ? 'lost' : 'back'));
  const { restored, skipped, took } = await fleet.start();
  // Where a resume's time went: the process's own start, then the store, the actors, the panes.
  info({ restored: restored.length, skipped, ...took, sinceStartMs: Date.now() - startedAt, ...(deps.processUptimeMs ? { uptimeMs: Math.round(deps.processUptimeMs()) } : {}) }, 'fleet restored');
  for (const s of skipped) warn({ worker: s.id, reason: s.reason }, 'skipped a stored worker that could not be restored');
  // Hooks that ran while no daemon was here: applied before the socket takes new ones.
  await drainHookQueue(paths.home, fleet, info).catch((err) => warn({ err: String(err) }, 'hook queue drain failed'));

  // Which live workers of one repository touch the same files (issue 40): status, survey, the page.
  const overlaps = createOverlapReader({ store, placeOf });
  const core = makeHandlers({
    store,
    fleet,
    overlaps,
    startedAt,
    pid: deps.pid,
    home: paths.home,
    socket: paths.socket,
    env: deps.env,
    workersDir: paths.workers,
    requestShutdown: deps.requestShutdown,
    baseNotices,
    needsYouSources: [annotationNotices],
    repoTopLevel,
    repoFacts,
    withRepoFacts: (id, facts, during) => ports.withRepoFacts(id, facts, during),
    // Annex and dispatch pass the top level they have just asked git for: it is not asked again.
    resolveBase: async (repo) => (await resolveBaseRefAt(repo)).base,
    backendProblem: (backend) => {
      if (backend === 'tmux' && !tmuxAvailable) return 'tmux is not installed, so --backend tmux cannot run. Install it (sudo apt-get install -y tmux) or use --backend pty.';
      if (backend === 'herdr' && !hosts.herdr) return 'herdr is not configured. Set HAND_HERDR_BIN to the herdr binary before the daemon starts, or use --backend tmux.';
      return null;
    },
    agentVersion: (agent) => agentVersion(agent, deps.env),
    agentProblem: (agent) => {
      const profile = agentProfile(agent);
      return profile.binary(deps.env) === null ? `${profile.label} is not installed. Install it (${profile.install}) or use --agent mock.` : null;
    },
    rememberCallerEnv: (id, env, add) => ports.rememberCallerEnv(id, env, add),
    sandbox,
    calibration: (agent) => calibrationStandingOf(agentProfile(agent), deps.env, paths.home),
    defaultHost: (project) => hostStore.defaultHost(project),
    planFar: (p, project) => planFarWorker({ far: farHosts, hosts: hostStore }, p, project),
  });
  // Backlog, decisions, away mode, notifications, usage (issue 13), and the rules they put on the fleet's methods.
  // The public URL and the capabilities of notifications' actions (issue 42): one per run, shared
  // by the notifying side (mints) and the review page (redeems).
  const phoneLinks = createPhoneLinks({ home: paths.home, env: deps.env });
  const work = installWork({ store, fleet, paths, env: deps.env, baseTips, baseNotices, placeOf, phoneLinks, log: (obj, msg) => info(obj, msg) });
  // The agent CLIs as installed, driven against their fake APIs (issue 39): on request, and at
  // start when the person turned it on (only the agents whose installed version was not calibrated).
  const calibrator = createCalibrator({ home: paths.home, env: deps.env, sandbox, tmuxAvailable });
  if (deps.env[CALIBRATE_AUTO_ENV] === '1') {
    void calibrator.calibrate({ auto: true })
      .then((r) => info({ calibrated: r.agents.map((a) => `${a.agent} ${a.version} ${a.verdict}`), skipped: r.skipped.length }, 'calibration at start'))
      .catch((err: unknown) => warn({ err: String(err) }, 'calibration at start failed'));
  }
  // Each worker's agent session, proved to be its, and what it spent (issue 41).
  const keeper = createSessionKeeper({
    store, fleet, sessions: work.stores.sessions, stateDir: paths.home,
    launchEnvOf: (id) => {
      const c = ports.callerEnvOf(id);
      return { ...c.env, ...c.add };
    },
    log: (obj, msg) => info(obj, msg),
  });
  // A worker's hook note, heard over the socket or read from the queue while running: its session is the keeper's to prove.
  const hookFleet = {
    hook: async (note: HookNote) => {
      const v = await fleet.hook(note);
      keeper.noteHook(note);
      return v;
    },
  };
  // Notes a hook queued because this daemon did not answer in time: applied within a second, not at the next start.
  const hookQueue = watchHookQueue(paths.home, hookFleet, info);
  const relaunchDeps = { store, fleet, rememberCallerEnv: (id: string, env: Record<string, string>, add?: Record<string, string>) => ports.rememberCallerEnv(id, env, add), placeOf, stateDir: paths.home, sandbox, sessions: keeper };
  const sessionMethods = sessionHandlers({ store, fleet, keeper, sessions: work.stores.sessions, relaunch: relaunchDeps, inLane: (id, fn) => fleet.inLane(id, fn) });
  // The review page's actions call the finished table (below), so its one method reaches it late.
  let review: ReturnType<typeof hostReview> | null = null;
  const methods: MethodTable = createMethods({
    core,
    inLane: (id, fn) => fleet.inLane(id, fn),
    // Both gates are worker machine states; these handlers open, approve and reject them.
    landing: landingHandlers({ store, fleet, env: deps.env, callerPaths, baseTips, placeOf, log: (obj, msg) => info(obj, msg) }),
    project: projectHandlers({ store, fleet, baseTips, placeOf }),
    discard: discardHandlers({ store, fleet, workersDir: paths.workers, placeOf }),
    relaunch: relaunchHandlers(relaunchDeps),
    sessions: { ...sessionMethods.methods, decorate: sessionMethods.decorate },
    // Claude Code's hooks, the worker's second witness (actors/witness.ts); a note naming its session has the keeper prove it.
    hook: hookHandlers({ fleet: hookFleet, home: paths.home }),
    // The Hand's read-only views: survey (the whole picture) and audience (the journal since a time).
    picture: pictureHandlers({ store, fleet, work: work.stores, env: deps.env, home: paths.home, overlaps, sessions: sessionMethods.facts }),
    review: { review: async (p, ctx) => (await review!).handlers.review(p, ctx) },
    work: work.methods,
    // Machines the fleet reaches over ssh (issue 28), in the same database as the work.
    hosts: hostHandlers({ hosts: hostStore, store, home: paths.home, keys: farHosts }),
    calibration: calibrator.handlers(),
    workers: { store, fleet },
    annotations: annotationHandlers({ annotations, store, fleet, notices: annotationNotices }),
  }, work.rules);
  // The review page on 127.0.0.1: its actions call these same methods (actors/review).
  const served = serveMethods(methods, PARAM_PARSERS);
  // Not awaited: the socket answers (and a resume's first status) without waiting for the page.
  review = hostReview({
    home: paths.home, env: deps.env, fleet, store, served,
    phone: { links: phoneLinks, journal: (entry) => store.commit({ snapshotVersion: SNAPSHOT_VERSION, journal: [entry] }) },
    screens: hostScreens(hosts, (name) => farHosts.terminal(name)), log: (obj, msg) => info(obj, msg),
    // Above the fleet: each agent not calibrated at its installed version, or failed (issue 39).
    notices: async () => (await calibrationStandings(deps.env, paths.home)).filter((c) => c.standing !== 'calibrated').map((c) => c.line),
    // Each worker's cost and a lost worker's resume (issue 41).
    standingsOf: (views) => sessionMethods.facts.pageNotes(views),
  });
  review.catch((err: unknown) => warn({ err: String(err) }, 'the review page did not start'));

  // Projects that said so have their lost workers resumed now, one at a time, each into its own conversation.
  const resuming = resumeLostOfAutoProjects({ store, fleet, resume: (ids) => methods.resume({ ids, env: deps.env as Record<string, string> }, NO_PROGRESS), log: (obj, msg) => info(obj, msg) });

  let closing: ReturnType<Daemon['close']> | null = null;
  const close = async () => {
    // Every step is attempted whatever fails: a read-only home at shutdown (nothing can be
    // written) must still let the shell release the lock and exit.
    const step = async (what: string, fn: () => unknown) => {
      try {
        await fn();
      } catch (err) {
        warn({ step: what, err: String(err) }, 'shutdown step failed');
      }
    };
    let live: string[] = [];
    let tmux: TmuxOutcome | string = 'no-tmux';
    await step('auto resume', () => resuming);
    await step('review page', async () => (await review)?.close());
    await step('calibration', () => calibrator.close());
    await step('far tmux servers', () => farHosts.dispose());
    await step('ssh connections', () => closeHostConnections(hostStore, paths.home));
    await step('session keeper', () => keeper.close());
    await step('work watch', () => work.close());
    await step('hook queue', () => hookQueue.close());
    await step('fleet', async () => {
      live = liveWorkerIds(fleet);
      await fleet.shutdown();
      // Nothing dead left behind: with no live worker the private tmux server goes too.
      tmux = await shutTmuxIfIdle(tmuxHost, live).catch((err) => `failed: ${String(err)}`);
    });
    await step('state record', () => stateRecord.stop());
    await step('store', () => store.close());
    await step('host store', () => hostStore.close());
    await step('annotation store', () => annotations.close());
    return { tmux, live };
  };
  return {
    methods,
    served,
    fleet,
    close: () => (closing ??= close()),
  };
}
