/**
 * Figure 4, resume: a daemon with N persisted tmux workers is SIGKILLed and started again with
 * `hand daemon start`; the time runs from spawning that command to the first `status` answer
 * (over the socket, polled every 20 ms) that lists all N workers with `live: true`.
 *
 * The fleet is grown with at most GROW_CONCURRENCY dispatches in flight, and resume is measured
 * at every size in `sizes` on the way up, so a tmux server that dies while the fleet grows still
 * leaves the figure for the largest fleet built before it (and the crash evidence in the note).
 */
import type { BenchResult } from './types.ts';
import type { DaemonWorld, StatusRow } from './lib/daemon.ts';
import { alive } from './lib/cleanup.ts';
import { pool } from './lib/pool.ts';
import { nowMs, summarise } from './lib/stats.ts';

export const GROW_CONCURRENCY = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Dispatches idle workers until the fleet holds `size` rows; throws with the crash evidence if tmux died. */
export async function growTo(d: DaemonWorld, size: number, env: () => Record<string, string>, log?: (m: string) => void): Promise<number> {
  const have = (await d.rpc('status')).length;
  const ids = Array.from({ length: Math.max(0, size - have) }, (_, k) => `idle-${have + k}`);
  const t0 = nowMs();
  try {
    await pool(ids, GROW_CONCURRENCY, async (id) => {
      await d.dispatch(id, 'tmux', env());
      d.noteTmuxServer();
    });
  } catch (err) {
    const live = (await d.rpc('status').catch(() => [])).filter((r) => r.live).length;
    const evidence = d.crashEvidence();
    throw new Error(`growing the fleet from ${have} to ${size} failed with ${live} workers live: ${err instanceof Error ? err.message : String(err)}${evidence.length ? ` — ${evidence.join(' | ')}` : ''}`);
  }
  log?.(`fleet grown ${have} → ${size} in ${((nowMs() - t0) / 1000).toFixed(1)} s (${GROW_CONCURRENCY} dispatches in flight)`);
  return size;
}

/** `trials` SIGKILL + start cycles of the daemon; ms from `hand daemon start` to all `total` live. */
export async function measureResume(d: DaemonWorld, total: number, trials: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < trials; i++) samples.push(await restartDaemon(d, total));
  return samples;
}

/** SIGKILLs the daemon and starts it again (with `env` added to its environment): ms from `hand daemon start` to all `total` live. */
export async function restartDaemon(d: DaemonWorld, total: number, env?: Record<string, string>): Promise<number> {
  const pid = await d.pid();
  process.kill(pid, 'SIGKILL');
  for (let k = 0; k < 200 && alive(pid); k++) await sleep(25);
  const t0 = nowMs();
  const started = await d.hand(['daemon', 'start', '--json'], env ? { env } : {});
  if (started.code !== 0) throw new Error(`daemon restart failed: ${started.stderr}`);
  for (;;) {
    const list = await d.rpc('status');
    if (list.length === total && list.every((r) => r.live === true)) break;
    if (nowMs() - t0 > 60_000) throw new Error(`resume: after 60 s only ${list.filter((r) => r.live).length}/${total} workers live`);
    await sleep(20);
  }
  return nowMs() - t0;
}

export function resumeResult(total: number, samples: number[]): BenchResult {
  return summarise(`resume: ${total} tmux workers, daemon start → all listed live by status`, 'ms', samples, total <= 100 ? 1000 : 2000, 'after SIGKILL; includes `hand daemon start` (process start + socket up)');
}
