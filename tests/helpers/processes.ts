/**
 * Ending a process by its pid, for cleanups that end only what they started (a daemon named by
 * its lock file, an agent the bench spawned), never by name. Liveness is tests/harness's
 * isProcessAlive, re-exported so a cleanup imports both from one place.
 */
export { isProcessAlive } from '../harness/process-alive.ts';

/** SIGKILL, if the process is still there. */
export function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
