/**
 * The step every "a silent terminal server is could-not-tell" test takes: the server SIGSTOPped
 * and `hand wait` asked about a worker on it, timed from the stop.
 */
import type { HandRun } from './hand-process.ts';

/**
 * SIGSTOPs the server `pid` (`onStopped` records it, so the file's cleanup can SIGCONT it even
 * when the test fails) and asks `hand wait` about `id`: its answer and how long after the stop.
 */
export async function waitOnStoppedServer(w: { hand(args: string[]): Promise<HandRun> }, pid: number, id: string, onStopped: (pid: number) => void): Promise<{ waited: HandRun; seenAfter: number }> {
  const t0 = Date.now();
  process.kill(pid, 'SIGSTOP');
  onStopped(pid);
  const waited = await w.hand(['wait', id, '--until', 'settled', '--timeout', '20s', '--json']);
  return { waited, seenAfter: Date.now() - t0 };
}
