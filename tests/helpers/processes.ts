/**
 * Ending a process by its pid, for cleanups that end only what they started (a daemon named by
 * its lock file, an agent the bench spawned), never by name. Liveness is tests/harness's
 * isProcessAlive, re-exported so a cleanup imports both from one place.
 */
import { connect } from 'node:net';

export { isProcessAlive } from '../harness/process-alive.ts';

/** SIGKILL, if the process is still there. */
export function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Resolves once a connection to `socket` is refused (nothing listens): a SIGKILLed daemon's pid
 * reads as a zombie while its other threads still exit, and until the last one has, its listening
 * socket accepts a connection and then resets it.
 */
export async function socketRefuses(socket: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const c = connect(socket);
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (!accepted) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${socket} still accepted connections ${timeoutMs} ms after its daemon was killed`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
