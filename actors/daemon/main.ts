/**
 * `hand daemon run`: hosts the fleet. One daemon per state directory (a lock refuses a second);
 * a daemon killed with SIGKILL leaves a stale lock and socket that the next start takes over,
 * and the fleet resumes from SQLite: tmux/herdr panes are re-attached, pty workers marked lost.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import pino from 'pino';
import type { HomePaths } from '../../contract/home.ts';
import { acquireHomeLock } from '../../persistence/home-lock.ts';
import { ensurePrivateFile } from '../../io/fs/private-files.ts';
import { openStore } from '../../persistence/sqlite-store.ts';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import type { BackendName, TerminalHost } from '../../io/terminal/types.ts';
import { repoTopLevel, resolveBaseRef } from '../../io/git/index.ts';
import { claudeBinary } from '../../io/agent/launch.ts';
import { agentVersion } from '../../io/agent/agent-version.ts';
import { createFleetHost } from '../fleet-host.ts';
import { createRealPorts } from './real-ports.ts';
import { makeHandlers } from './handlers.ts';
import { startSocketServer } from './server.ts';
import { keepSocket } from './socket-keeper.ts';
import { createOptionalHerdrHost } from './herdr-option.ts';
import { createLandingPort, landingHandlers, type CallerPaths } from './landing.ts';
import { hostReview } from '../review/wiring.ts';
import { hostScreens } from '../review/stream.ts';
import { pictureHandlers } from './fleet-picture.ts';
import { installWork } from './work-install.ts';
import { projectHandlers } from './project-handlers.ts';
import { discardHandlers } from './discard-handlers.ts';
import { relaunchHandlers } from './relaunch-handlers.ts';
import { liveWorkerIds, shutTmuxIfIdle } from './daemon-stop.ts';
import { keepStateRecord, openCheckedStore, refusalLine, type StateRecord } from './state-record.ts';
import { RefusedError } from '../../io/errors.ts';
import { applyFaultHolds, FAULT_HOLD_ENV, parseFaultHolds } from './fault-holds.ts';
import { drainHookQueue, hookHandlers } from './hook-handlers.ts';

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export async function runDaemon(paths: HomePaths): Promise<void> {
  const lock = acquireHomeLock(paths.home);
  ensurePrivateFile(paths.log);
  const logger = pino({ base: { pid: process.pid } }, pino.destination({ dest: paths.log, sync: true, mkdir: true }));
  const log = (obj: Record<string, unknown>, msg?: string) => logger.info(obj, msg ?? String(obj.msg ?? obj.event ?? 'event'));
  const startedAt = Date.now();
  // A lost or damaged database is refused (naming the backup), never read as an empty fleet.
  let stateRecord: StateRecord;
  try {
    stateRecord = keepStateRecord(openCheckedStore({ home: paths.home, db: paths.db }, (db) => openStore(db)), { home: paths.home, db: paths.db }, (obj, msg) => logger.warn(obj, msg));
  } catch (err) {
    if (err instanceof RefusedError) {
      logger.error({ code: err.code, ...err.details }, err.message);
      process.stdout.write(refusalLine(err));
    }
    lock.release();
    throw err;
  }
  const store = stateRecord.store;
  const hosts: Partial<Record<BackendName, TerminalHost>> = {};
  const tmuxAvailable = hasTmux();
  const tmuxHost = tmuxAvailable ? createTmuxHost({ socketPath: paths.tmuxSocket, onNotice: (msg, fields) => logger.warn(fields, msg) }) : undefined;
  if (tmuxHost) hosts.tmux = tmuxHost;
  hosts.pty = createPtyHost();
  const herdr = createOptionalHerdrHost(process.env);
  if (herdr) hosts.herdr = herdr;
  const ports = createRealPorts({
    fallbackEnv: process.env,
    stateDir: paths.home,
    postureOf: (intent) => store.getProject(intent.project)?.permissions ?? 'off',
  });
  applyFaultHolds(parseFaultHolds(process.env[FAULT_HOLD_ENV]), ports, hosts, (obj, msg) => logger.warn(obj, msg));
  // The PATH of each worker's last land/approve, for the landing that runs inside its machine.
  const callerPaths: CallerPaths = new Map();
  const fleet = createFleetHost({ store, hosts, ports, landing: createLandingPort({ store, callerPaths }), log: (obj) => log(obj) });
  const { restored, skipped } = await fleet.start();
  log({ restored: restored.length, skipped }, 'fleet restored');
  for (const s of skipped) logger.warn({ worker: s.id, reason: s.reason }, 'skipped a stored worker that could not be restored');
  // Hooks that ran while no daemon was here: applied before the socket takes new ones.
  await drainHookQueue(paths.home, fleet, (obj, msg) => log(obj, msg)).catch((err) => logger.warn({ err: String(err) }, 'hook queue drain failed'));

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    // Every step is attempted and the process exits whatever fails: a read-only home at
    // shutdown (the socket cannot be unlinked) used to leave a daemon that ignored SIGTERM.
    const step = (what: string, fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        logger.warn({ step: what, err: String(err) }, 'shutdown step failed');
      }
    };
    step('log', () => log({ why }, 'daemon stopping'));
    step('close socket', () => server.close());
    await Promise.resolve().then(() => review.close()).catch((err: unknown) => step('log', () => logger.warn({ err: String(err) }, 'review page close failed')));
    try {
      await work.close();
      const live = liveWorkerIds(fleet);
      await fleet.shutdown();
      // Nothing dead left behind: with no live worker the private tmux server goes too.
      const tmux = await shutTmuxIfIdle(tmuxHost, live).catch((err) => `failed: ${String(err)}`);
      log({ tmux, live }, 'tmux server on stop');
    } catch (err) {
      step('log', () => logger.warn({ err: String(err) }, 'fleet shutdown failed'));
    } finally {
      await stateRecord.stop().catch(() => {});
      step('close store', () => store.close());
      step('remove socket', () => existsSync(paths.socket) && unlinkSync(paths.socket));
      step('release lock', () => lock.release());
      step('flush log', () => logger.flush());
      process.exit(0);
    }
  };
  const handlers = makeHandlers({
    store,
    fleet,
    startedAt,
    home: paths.home,
    socket: paths.socket,
    workersDir: paths.workers,
    requestShutdown: () => void shutdown('requested'),
    repoTopLevel,
    resolveBase: async (repo) => (await resolveBaseRef(repo)).base,
    backendProblem: (backend) => {
      if (backend === 'tmux' && !tmuxAvailable) return 'tmux is not installed, so --backend tmux cannot run. Install it (sudo apt-get install -y tmux) or use --backend pty.';
      if (backend === 'herdr' && !hosts.herdr) return 'herdr is not configured. Set HAND_HERDR_BIN to the herdr binary before the daemon starts, or use --backend tmux.';
      return null;
    },
    agentVersion,
    agentProblem: (agent) => (agent === 'claude' && !claudeBinary() ? 'Claude Code is not installed. Install it (npm install --save-exact @anthropic-ai/claude-code@2.1.332) or use --agent mock.' : null),
    rememberCallerEnv: (id, env, add) => ports.rememberCallerEnv(id, env, add),
  });
  // Both gates are worker machine states; these handlers open, approve and reject them.
  Object.assign(handlers, landingHandlers({ store, fleet, callerPaths }));
  Object.assign(handlers, projectHandlers({ store, fleet }));
  Object.assign(handlers, discardHandlers({ store, fleet, workersDir: paths.workers }));
  // Claude Code's hooks, the worker's second witness (actors/witness.ts).
  Object.assign(handlers, hookHandlers({ fleet }));
  Object.assign(handlers, relaunchHandlers({ store, fleet, rememberCallerEnv: (id, env, add) => ports.rememberCallerEnv(id, env, add) }));
  // The review page on 127.0.0.1: its actions call these same handlers (actors/review).
  const review = await hostReview({ home: paths.home, fleet, store, handlers, screens: hostScreens(hosts), log: (obj, msg) => log(obj, msg) });
  Object.assign(handlers, review.handlers);
  // The Hand's read-only views: survey (the whole picture) and audience (the journal since a time).
  Object.assign(handlers, pictureHandlers({ store, fleet }));
  // Backlog, decisions, away mode, notifications, usage (issue 13): one registration.
  const work = installWork({ handlers, store, fleet, paths, log: (obj, msg) => log(obj, msg) });
  const server = await keepSocket(paths.socket, () => startSocketServer(paths.socket, handlers, (obj, msg) => log(obj, msg)), (obj, msg) => log(obj, msg));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('uncaughtException', (err) => {
    logger.error({ err: err.message, stack: err.stack }, 'uncaught exception');
  });
  process.on('unhandledRejection', (err) => {
    logger.error({ err: String(err) }, 'unhandled rejection');
  });
  log({ socket: paths.socket, backends: Object.keys(hosts) }, 'daemon listening');
}
