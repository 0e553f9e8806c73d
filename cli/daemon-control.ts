/**
 * `hand daemon stop` and `status` when the daemon does not answer on its socket but still holds
 * the home (its socket file was deleted, or it is wedged): "no daemon is running" was wrong, and
 * every other command was refused because "another daemon holds" the home. The lock holder is
 * named, and `stop` signals it (SIGTERM) — only after proving the lock is really held, so a stale
 * pid file never aims a signal at an unrelated process.
 */
import { DaemonUnreachableError, RefusedError } from '../contract/errors.ts';
import { readLockHolder } from '../persistence/lock-holder.ts';
import { homeLockHeld } from '../persistence/lock-probe.ts';
import { call } from './client.ts';
import type { HomePaths } from '../contract/home.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live daemon holding the home without answering, or null. */
export function silentHolder(paths: HomePaths): number | null {
  const holder = readLockHolder(paths.home);
  if (!holder || !alive(holder.pid) || !homeLockHeld(paths.home)) return null;
  return holder.pid;
}

export async function daemonStatus(paths: HomePaths): Promise<Record<string, unknown>> {
  try {
    return { running: true, ...(await call<Record<string, unknown>>(paths, 'ping', {}, { autostart: false })) };
  } catch (err) {
    if (!(err instanceof DaemonUnreachableError)) throw err;
    const pid = silentHolder(paths);
    if (pid === null) throw err;
    throw new DaemonUnreachableError(`a daemon (pid ${pid}) holds ${paths.home} but does not answer on ${paths.socket}. Stop it with \`hand daemon stop\` (it signals pid ${pid}).`, { home: paths.home, pid });
  }
}

export async function stopDaemon(paths: HomePaths, waitMs = 15_000): Promise<Record<string, unknown>> {
  try {
    return await call<Record<string, unknown>>(paths, 'shutdown', {}, { autostart: false });
  } catch (err) {
    if (!(err instanceof DaemonUnreachableError)) throw err;
    const pid = silentHolder(paths);
    if (pid === null) throw err;
    process.kill(pid, 'SIGTERM');
    const start = Date.now();
    while (alive(pid) && Date.now() - start < waitMs) await new Promise((r) => setTimeout(r, 50));
    if (alive(pid)) {
      throw new RefusedError('daemon-did-not-stop', `daemon pid ${pid} holds ${paths.home}, does not answer on its socket, and did not stop within ${waitMs / 1000}s of SIGTERM. End it yourself: kill ${pid}`, { pid });
    }
    return { stopping: true, pid, signalled: 'SIGTERM' };
  }
}
