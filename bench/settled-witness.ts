/**
 * Settled detection with the witness beside the quiet window, in one daemon and one run (issue 39
 * item 4). Per host (pty, tmux, the herdr double) two mock workers take turns: one runs the Stop
 * hook kingshand's seed wrote for it (KH_MOCK_STOP_HOOKS=1: `hand hook Stop` through /bin/sh, as
 * Claude Code 2.1.332 runs it, the spinner up meanwhile), the other runs none, so only the quiet
 * window can settle it. Each trial: a menu (MODE:ask), answered with Enter; the figure is the
 * mock's finished-turn frame → the first `settled` row on the daemon's watch stream. For the
 * witness worker a second figure starts at the Stop hook's start: the whole cost of the word,
 * the `hand hook` process included, which the agent spends before it draws the turn's end.
 */
import { join } from 'node:path';
import type { BackendName } from '../io/terminal/types.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import type { DaemonWorld } from './lib/daemon.ts';
import { makeDaemonForBackends } from './lib/hosts.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';

/** Issue 39's target for settled with the witness; the quiet window keeps the older one. */
const WITNESS_TARGET_MS = 150;
const QUIET_TARGET_MS = 300;

type Kind = 'witness' | 'quiet';

interface Samples {
  settled: Record<Kind, number[]>;
  fromHook: number[];
}

async function oneTurn(d: DaemonWorld, id: string, log: string, i: number, hooked: boolean): Promise<{ settled: number; hookStarted: number | null }> {
  const blocked = d.watchUntil(id, 'blocked on the question', (r) => r.condition === 'blocked');
  await blocked.ready;
  await d.rpc('send', { id, text: `MODE:ask settled question ${i}` });
  await blocked.done;
  const settled = d.watchUntil(id, 'settled after the answer', (r) => r.condition === 'settled');
  await settled.ready;
  const answeredAt = nowMs();
  await d.rpc('keys', { id, key: 'enter' });
  const settledAt = await settled.done;
  const finished = await awaitEvent(log, 'turn-finished', answeredAt);
  // Logged before the finished frame, so already there when the worker runs hooks.
  const hook = hooked ? await awaitEvent(log, 'stop-hook-started', answeredAt, 1_000).catch(() => null) : null;
  return { settled: settledAt - finished.t, hookStarted: hook === null ? null : settledAt - hook.t };
}

/**
 * Where a daemon's mock worker can write its event log: its report directory, the one place of
 * the state directory its sandbox binds writable (io/sandbox/worker-sandbox.ts); a path under the
 * bench's temp dir does not exist in there.
 */
const eventLogIn = (d: DaemonWorld) => (id: string) => join(d.home, 'workers', id, 'out', 'events.jsonl');

async function measure(d: DaemonWorld, backend: BackendName, workerEnv: (e: Record<string, string>) => Record<string, string>, trials: number): Promise<Samples> {
  const eventLog = eventLogIn(d);
  const ids: Record<Kind, string> = { witness: `sw-witness-${backend}`, quiet: `sw-quiet-${backend}` };
  await d.dispatch(ids.witness, backend, workerEnv({ KH_MOCK_EVENT_LOG: eventLog(ids.witness), KH_MOCK_STOP_HOOKS: '1' }));
  await d.dispatch(ids.quiet, backend, workerEnv({ KH_MOCK_EVENT_LOG: eventLog(ids.quiet) }));
  const s: Samples = { settled: { witness: [], quiet: [] }, fromHook: [] };
  for (let i = 0; i < trials; i++) {
    // Alternated, so both see the same load on a shared machine.
    for (const kind of ['witness', 'quiet'] as const) {
      const r = await oneTurn(d, ids[kind], eventLog(ids[kind]), i, kind === 'witness');
      s.settled[kind].push(r.settled);
      if (kind === 'witness') {
        if (r.hookStarted === null) throw new Error(`worker ${ids.witness} finished trial ${i} without running its Stop hook (KH_MOCK_STOP_HOOKS=1 and the seeded settings.local.json)`);
        s.fromHook.push(r.hookStarted);
      }
    }
  }
  return s;
}

export async function run(opts: { trials: number; log?: (m: string) => void }, backends: BackendName[] = ['pty', 'tmux', 'herdr']): Promise<BenchResult[]> {
  const world = makeWorld('settled-witness');
  const d = await makeDaemonForBackends(world, backends);
  const results: BenchResult[] = [];
  for (const b of backends) {
    const s = await measure(d, b, (e) => world.workerEnv(e), opts.trials);
    const host = b === 'herdr' ? 'herdr (double)' : b;
    results.push(
      summarise(`settled with the witness, ${host}: turn finished → actor settled (Stop hook + agreeing screen)`, 'ms', s.settled.witness, WITNESS_TARGET_MS, 'daemon and watch stream; the mock runs its seeded `hand hook Stop` before it draws the finished turn, as Claude Code 2.1.332 does'),
      summarise(`settled, quiet window, ${host}: turn finished → actor settled (no witness, same run)`, 'ms', s.settled.quiet, QUIET_TARGET_MS, 'the same daemon, trials alternated with the witness worker'),
      summarise(`settled with the witness, ${host}: Stop hook started → actor settled`, 'ms', s.fromHook, null, 'the word\'s whole cost: the `hand hook` process start and its socket call, spent by the agent before its finished frame'),
    );
    opts.log?.(`settled with and without the witness (${b}): ${opts.trials} trials each done`);
  }
  return results;
}
