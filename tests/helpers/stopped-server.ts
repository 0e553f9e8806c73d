/**
 * The step every "a silent terminal server is could-not-tell" test takes: the server SIGSTOPped
 * and `hand wait` asked about a worker on it, timed from the stop; then what status says of its workers.
 */
import { expect } from 'vitest';
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

/** The part of a `hand status --json` row a silent server's test reads. */
export interface SilentRow { id: string; condition: string; readable: boolean; live: boolean | null; couldNotTell: string | null }

/** While the server is stopped: each worker reads could not tell with `reason` (unreadable, liveness unknown), none stalled or gone. */
export function expectEachCouldNotTell(rows: SilentRow[], ids: string[], reason: string): void {
  expect(rows.map((r) => [r.id, r.readable, r.live, r.couldNotTell])).toEqual(ids.map((id) => [id, false, null, reason]));
  expect(rows.map((r) => r.condition).filter((c) => ['stalled', 'gone'].includes(c))).toEqual([]);
}
