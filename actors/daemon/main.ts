/**
 * `hand daemon run`: the process shell around createDaemon (create-daemon.ts). One daemon per
 * state directory (a lock refuses a second); a daemon killed with SIGKILL leaves a stale lock and
 * socket that the next start takes over, and the fleet resumes from SQLite: tmux/herdr panes are
 * re-attached, pty workers marked lost. Only this file knows the process: its lock, its log file,
 * its signals and its exit.
 */
import { existsSync, unlinkSync } from 'node:fs';
import pino from 'pino';
import type { HomePaths } from '../../contract/home.ts';
import { acquireHomeLock } from '../../persistence/home-lock.ts';
import { ensurePrivateFile } from '../../io/fs/private-files.ts';
import { startSocketServer } from './server.ts';
import { keepSocket, type KeptSocket } from './socket-keeper.ts';
import { refusalLine } from './state-record.ts';
import { RefusedError } from '../../contract/errors.ts';
import { createDaemon, type Daemon } from './create-daemon.ts';

export async function runDaemon(paths: HomePaths): Promise<void> {
  const lock = acquireHomeLock(paths.home);
  ensurePrivateFile(paths.log);
  const logger = pino({ base: { pid: process.pid } }, pino.destination({ dest: paths.log, sync: true, mkdir: true }));
  const log = (level: 'info' | 'warn' | 'error', obj: Record<string, unknown>, msg: string) => logger[level](obj, msg);
  let server: KeptSocket | null = null;
  let daemon: Daemon | null = null;
  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    const step = (what: string, fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        logger.warn({ step: what, err: String(err) }, 'shutdown step failed');
      }
    };
    step('log', () => logger.info({ why }, 'daemon stopping'));
    step('close socket', () => server?.close());
    try {
      const { tmux, live } = (await daemon?.close()) ?? { tmux: 'no-tmux', live: [] };
      step('log', () => logger.info({ tmux, live }, 'tmux server on stop'));
    } finally {
      step('remove socket', () => existsSync(paths.socket) && unlinkSync(paths.socket));
      step('release lock', () => lock.release());
      step('flush log', () => logger.flush());
      process.exit(0);
    }
  };
  try {
    daemon = await createDaemon({ paths, env: process.env, pid: process.pid, log, requestShutdown: () => void shutdown('requested') });
  } catch (err) {
    // A lost or damaged database: one line on stdout that the starting CLI turns back into the refusal.
    if (err instanceof RefusedError) {
      logger.error({ code: err.code, ...err.details }, err.message);
      process.stdout.write(refusalLine(err));
    }
    lock.release();
    throw err;
  }
  const methods = daemon.methods;
  const info = (obj: Record<string, unknown>, msg: string) => logger.info(obj, msg);
  server = await keepSocket(paths.socket, () => startSocketServer(paths.socket, methods, info), info);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('uncaughtException', (err) => {
    logger.error({ err: err.message, stack: err.stack }, 'uncaught exception');
  });
  process.on('unhandledRejection', (err) => {
    logger.error({ err: String(err) }, 'unhandled rejection');
  });
  logger.info({ socket: paths.socket }, 'daemon listening');
}
