/**
 * `hand daemon run`: the process shell around createDaemon (create-daemon.ts). One daemon per
 * state directory (a lock refuses a second); a daemon killed with SIGKILL leaves a stale lock and
 * socket that the next start takes over, and the fleet resumes from SQLite: tmux/herdr panes are
 * re-attached, pty workers marked lost. Only this file knows the process: its lock, its log file,
 * its signals and its exit.
 */
import { existsSync, unlinkSync } from 'node:fs';
import pino from 'pino';
import type { Socket } from 'node:net';
import type { HomePaths } from '../contract/home.ts';
import { acquireHomeLock } from '../persistence/home-lock.ts';
import { ensurePrivateFile } from '../io/fs/private-files.ts';
import { startSocketServer } from './server.ts';
import { authorityKeyPath, ensureAuthorityKey } from '../io/fs/authority-key.ts';
import { keepSocket, type KeptSocket } from './socket-keeper.ts';
import { refusalLine } from './state-record.ts';
import { RefusedError } from '../contract/errors.ts';
import { createDaemon, type Daemon } from './create-daemon.ts';
import { OPEN_METHODS } from '../contract/methods.ts';
import type { ServedMethods } from '../contract/protocol.ts';
import { ensureVoiceDir } from '../io/sandbox/worker-sandbox.ts';

/** A daemon holding its home and serving its socket, with no hold on the process. */
export interface DaemonService {
  daemon: Daemon;
  /** Stops serving, closes the fleet (live tmux panes survive), removes the socket, releases the lock. */
  shutdown(why: string): Promise<void>;
  /** Resolves once the service has shut down (asked by a `shutdown` request or by `shutdown()`). */
  stopped: Promise<void>;
  /** The daemon's log (daemon.log). */
  log: (level: 'info' | 'warn' | 'error', obj: Record<string, unknown>, msg: string) => void;
}

export interface DaemonServiceOptions {
  env: NodeJS.ProcessEnv;
  pid: number;
  /** Told when the service has shut down: the binary exits here. */
  onStopped?: () => void;
}

/**
 * The daemon of `paths` as a service: takes the home's lock, opens its log, builds the daemon
 * (createDaemon) and serves it on the socket. No `process.*`: the binary (runDaemon) adds the
 * signals and the exit, a test runs the same service in process.
 */
/**
 * The log's destination never takes the daemon down: a write it cannot make (ENOSPC on a full
 * disk) was an unhandled 'error' event — the daemon died silently within seconds, its last line
 * cut mid-record (issue 25 item 1). Failed lines stay buffered and are written, in order, once the
 * disk takes writes again, followed by one line saying since when the log could not be written.
 */
function survivingDestination(path: string): ReturnType<typeof pino.destination> {
  const dest = pino.destination({ dest: path, sync: true, mkdir: true });
  let failingSince: { at: number; error: string } | null = null;
  let writing = false;
  dest.on('error', (err: NodeJS.ErrnoException) => {
    failingSince ??= { at: Date.now(), error: err.code ?? err.message };
  });
  dest.on('write', () => {
    if (!failingSince || writing) return;
    const was = failingSince;
    failingSince = null;
    writing = true;
    try {
      dest.write(`${JSON.stringify({ level: 40, time: Date.now(), msg: 'the daemon log could not be written for a while; lines kept in memory meanwhile follow in order', since: was.at, error: was.error })}\n`);
    } finally {
      writing = false;
    }
  });
  return dest;
}

export async function startDaemonService(paths: HomePaths, opts: DaemonServiceOptions): Promise<DaemonService> {
  const lock = acquireHomeLock(paths.home, opts.pid);
  ensurePrivateFile(paths.log);
  const logger = pino({ base: { pid: opts.pid } }, survivingDestination(paths.log));
  const log = (level: 'info' | 'warn' | 'error', obj: Record<string, unknown>, msg: string) => logger[level](obj, msg);
  let server: KeptSocket | null = null;
  let voice: KeptSocket | null = null;
  let daemon: Daemon | null = null;
  let stopping: Promise<void> | null = null;
  let markStopped!: () => void;
  const stopped = new Promise<void>((r) => (markStopped = r));
  // A daemon that stops takes its connections with it (the binary by exiting): a long call
  // (wait, watch) must not keep it open.
  const connections = new Set<Socket>();
  const shutdown = (why: string): Promise<void> => {
    stopping ??= (async () => {
      const step = (what: string, fn: () => unknown) => {
        try {
          fn();
        } catch (err) {
          logger.warn({ step: what, err: String(err) }, 'shutdown step failed');
        }
      };
      step('log', () => logger.info({ why }, 'daemon stopping'));
      step('close socket', () => server?.close());
      step('close voice socket', () => voice?.close());
      try {
        const { tmux, live } = (await daemon?.close()) ?? { tmux: 'no-tmux', live: [] };
        step('log', () => logger.info({ tmux, live }, 'tmux server on stop'));
      } finally {
        step('end connections', () => {
          for (const c of connections) c.destroy();
        });
        step('remove socket', () => existsSync(paths.socket) && unlinkSync(paths.socket));
        step('remove voice socket', () => existsSync(paths.voiceSocket) && unlinkSync(paths.voiceSocket));
        step('release lock', () => lock.release());
        step('flush log', () => logger.flush());
        markStopped();
        opts.onStopped?.();
      }
    })();
    return stopping;
  };
  try {
    daemon = await createDaemon({ paths, env: opts.env, pid: opts.pid, log, requestShutdown: () => void shutdown('requested'), processUptimeMs: () => process.uptime() * 1000 });
  } catch (err) {
    if (err instanceof RefusedError) logger.error({ code: err.code, ...err.details }, err.message);
    lock.release();
    throw err;
  }
  const methods = daemon.served;
  // Made before the socket listens: no request is ever served without a key to check it against.
  const authority = { key: ensureAuthorityKey(paths.home), keyPath: authorityKeyPath(paths.home) };
  const info = (obj: Record<string, unknown>, msg: string) => logger.info(obj, msg);
  /** Serves `served` on `socket`; a stop takes every connection with it. */
  const listenOn = (socket: string, served: ServedMethods) => async () => {
    const s = await startSocketServer(socket, served, info, authority);
    s.on('connection', (c: Socket) => {
      connections.add(c);
      c.once('close', () => connections.delete(c));
    });
    return s;
  };
  server = await keepSocket(paths.socket, listenOn(paths.socket, methods), info);
  // The workers' voice: a second socket that serves only the open methods (a hook speaks for its
  // own worker by its capability), in the one directory of the state directory a sandbox shows.
  ensureVoiceDir(paths.home);
  const open = Object.fromEntries(OPEN_METHODS.map((m) => [m, methods[m]])) as ServedMethods;
  voice = await keepSocket(paths.voiceSocket, listenOn(paths.voiceSocket, open), info);
  logger.info({ socket: paths.socket, voice: paths.voiceSocket }, 'daemon listening');
  return { daemon, shutdown, stopped, log };
}

/** `hand daemon run`: the service, plus this process's signals, error log and exit. */
export async function runDaemon(paths: HomePaths): Promise<void> {
  let service: DaemonService;
  try {
    service = await startDaemonService(paths, { env: process.env, pid: process.pid, onStopped: () => process.exit(0) });
  } catch (err) {
    // A lost or damaged database: one line on stdout that the starting CLI turns back into the refusal.
    if (err instanceof RefusedError) process.stdout.write(refusalLine(err));
    throw err;
  }
  process.on('SIGTERM', () => void service.shutdown('SIGTERM'));
  process.on('SIGINT', () => void service.shutdown('SIGINT'));
  // An error nothing caught is written to the daemon's log, not lost; the daemon stays up.
  process.on('uncaughtException', (err) => service.log('error', { err: err.message, stack: err.stack }, 'uncaught exception'));
  process.on('unhandledRejection', (err) => service.log('error', { err: String(err) }, 'unhandled rejection'));
}
