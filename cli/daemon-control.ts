/**
 * `hand daemon stop` and `status` when the daemon does not answer on its socket but still holds
 * the home (its socket file was deleted, or it is wedged): "no daemon is running" was wrong, and
 * every other command was refused because "another daemon holds" the home. The lock holder is
 * named, and `stop` signals it (SIGTERM) — only after proving the lock is really held, so a stale
 * pid file never aims a signal at an unrelated process.
 */
import type { PingResult, ShutdownResult } from '../contract/methods.ts';
import { DaemonUnreachableError, RefusedError } from '../contract/errors.ts';
import { pidAlive, readLockHolder } from '../persistence/lock-holder.ts';
import { homeLockHeld } from '../persistence/lock-probe.ts';
import { call } from './client.ts';
import { isStopped } from './call-bounds.ts';
import type { HomePaths } from '../contract/home.ts';

/** The live daemon holding the home without answering, or null. */
export function silentHolder(paths: HomePaths): number | null {
  const holder = readLockHolder(paths.home);
  if (!holder || !pidAlive(holder.pid) || !homeLockHeld(paths.home)) return null;
  return holder.pid;
}

/** `daemon status` never waits long on a daemon that cannot answer: a ping gets this much. */
export const STATUS_PING_BOUND_MS = 3_000;

export async function daemonStatus(paths: HomePaths): Promise<PingResult & { running: true }> {
  // A stopped process cannot answer: say so from its pid without sending a request at all.
  const holder = readLockHolder(paths.home);
  if (holder && pidAlive(holder.pid) && isStopped(holder.pid) && homeLockHeld(paths.home)) {
    throw new DaemonUnreachableError(
      `a daemon (pid ${holder.pid}) holds ${paths.home} but does not answer: it is frozen, stopped (SIGSTOP or a debugger), so it cannot answer on ${paths.socket}. \`kill -CONT ${holder.pid}\` resumes it; \`hand daemon stop\` ends it once it runs again, or \`kill -9 ${holder.pid}\` ends it now (live tmux workers keep running).`,
      { home: paths.home, pid: holder.pid, frozen: true, state: 'stopped' },
    );
  }
  try {
    return { running: true, ...(await call(paths, 'ping', {}, { autostart: false, replyBoundMs: STATUS_PING_BOUND_MS })) };
  } catch (err) {
    if (!(err instanceof DaemonUnreachableError)) throw err;
    const pid = silentHolder(paths);
    if (pid === null) throw err;
    throw new DaemonUnreachableError(`a daemon (pid ${pid}) holds ${paths.home} but does not answer on ${paths.socket}. Stop it with \`hand daemon stop\` (it signals pid ${pid}).`, { home: paths.home, pid });
  }
}

/** A daemon that could not answer `shutdown` and was stopped by SIGTERM instead. */
export interface StoppedBySignal { stopping: true; pid: number; signalled: 'SIGTERM' }

export async function stopDaemon(paths: HomePaths, waitMs = 15_000): Promise<ShutdownResult | StoppedBySignal> {
  try {
    // A stopped daemon cannot answer `shutdown`: go straight to the signal, never wait a reply bound.
    const held = silentHolder(paths);
    if (held !== null && isStopped(held)) throw new DaemonUnreachableError(`daemon pid ${held} is stopped`);
    const stopping = await call(paths, 'shutdown', {}, { autostart: false });
    // "Stopped" means the state directory is free: the next command (restore-db, a start on the
    // same home) must not meet the daemon still closing its lock (seen 44 ms after a stop).
    await untilLetGo(paths, stopping.pid, waitMs);
    return stopping;
  } catch (err) {
    if (!(err instanceof DaemonUnreachableError)) throw err;
    const pid = silentHolder(paths);
    if (pid === null) throw err;
    process.kill(pid, 'SIGTERM');
    if (!(await clearsWithin(() => pidAlive(pid), waitMs, 50))) {
      const frozen = isStopped(pid) ? ` It is stopped (SIGSTOP): \`kill -CONT ${pid}\` lets it take the SIGTERM, or \`kill -9 ${pid}\` ends it now.` : ` End it yourself: kill ${pid}`;
      throw new RefusedError('daemon-did-not-stop', `daemon pid ${pid} holds ${paths.home}, does not answer on its socket, and did not stop within ${waitMs / 1000}s of SIGTERM.${frozen}`, { pid });
    }
    return { stopping: true, pid, signalled: 'SIGTERM' as const };
  }
}

/** How often a stop looks whether the daemon has let go of the state directory. */
const LET_GO_POLL_MS = 25;

/** Whether `busy` stops holding within `waitMs`, looked at every `everyMs`. */
async function clearsWithin(busy: () => boolean, waitMs: number, everyMs: number): Promise<boolean> {
  const start = Date.now();
  while (busy()) {
    if (Date.now() - start >= waitMs) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return true;
}

/** Resolves once no daemon holds `paths.home` (its lock probed from outside), or refuses at the bound. */
async function untilLetGo(paths: HomePaths, pid: number, waitMs: number): Promise<void> {
  if (await clearsWithin(() => homeLockHeld(paths.home), waitMs, LET_GO_POLL_MS)) return;
  throw new RefusedError('daemon-did-not-stop', `daemon pid ${pid} said it was stopping but still holds ${paths.home} ${waitMs / 1000}s later. Look at ${paths.home}/daemon.log; end it yourself with kill ${pid} (live tmux workers keep running).`, { pid });
}
