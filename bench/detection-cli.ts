/**
 * Figure 1, through the product's front door: the time from the mock agent drawing a menu to a
 * `hand wait <id> --until blocked` child process exiting with the answer. The wait process is
 * started while the worker is working, well before the menu (KH_MOCK_REPLY_MS gives it 1 s to
 * start and connect), so the figure is the push path daemon → socket → CLI → exit, not the
 * CLI's start-up. A trial where the wait connected only after the menu was drawn is discarded
 * and counted in the note.
 */
import type { BackendName } from '../io/terminal/types.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import type { DaemonWorld } from './lib/daemon.ts';
import { makeDaemonForBackends } from './lib/hosts.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';

const TARGET: Record<BackendName, number | null> = { pty: 150, tmux: 300, herdr: null };
// 1 s is ~5× the bundled CLI's start-up (p50 ~120 ms): enough head start, and half the cost of 2 s per trial.
const REPLY_MS = 1000;

async function trials(d: DaemonWorld, backend: BackendName, eventLog: (id: string) => string, workerEnv: (e: Record<string, string>) => Record<string, string>, n: number): Promise<BenchResult> {
  const id = `cli-${backend}`;
  const log = eventLog(id);
  await d.dispatch(id, backend, workerEnv({ KH_MOCK_EVENT_LOG: log, KH_MOCK_REPLY_MS: String(REPLY_MS) }));
  const samples: number[] = [];
  let late = 0;
  for (let i = 0; i < n; i++) {
    const sentAt = nowMs();
    const working = d.watchUntil(id, 'working', (r) => r.condition === 'busy' && r.state === 'working');
    await working.ready;
    await d.rpc('send', { id, text: `MODE:ask cli question ${i}` });
    await working.done;
    const wait = await d.hand(['wait', id, '--until', 'blocked', '--timeout', '30s', '--json']);
    if (wait.code !== 0) throw new Error(`hand wait --until blocked failed (${wait.code}): ${wait.stdout}${wait.stderr}`);
    const menu = await awaitEvent(log, 'menu-drawn', sentAt);
    // waitedMs is the daemon's own count from the wait request to the answer
    const waitBegan = wait.endedAt - Number(wait.json?.waitedMs ?? 0);
    if (waitBegan > menu.t) late++;
    else samples.push(wait.endedAt - menu.t);
    const answered = d.watchUntil(id, 'out of blocked after the answer', (r) => !r.awaitingInput && r.condition !== 'blocked');
    await answered.ready;
    await d.rpc('keys', { id, key: 'enter' });
    await answered.done;
    const settled = await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
    if (settled.reason !== 'settled') throw new Error(`worker ${id} did not settle after the answer: ${JSON.stringify(settled)}`);
  }
  const host = backend === 'herdr' ? 'herdr (double)' : backend;
  return summarise(`blocked detection, ${host}: menu drawn → \`hand wait --until blocked\` exits`, 'ms', samples, TARGET[backend], `wait process started ~${REPLY_MS} ms before the menu; ${late} of ${n} trials discarded (wait connected after the menu)`);
}

export async function run(opts: { trials: number; log?: (m: string) => void }, backends: BackendName[] = ['pty', 'tmux', 'herdr']): Promise<BenchResult[]> {
  const world = makeWorld('cli-wait');
  const d = await makeDaemonForBackends(world, backends);
  const results: BenchResult[] = [];
  for (const b of backends) {
    results.push(await trials(d, b, world.eventLog, (e) => world.workerEnv(e), opts.trials));
    opts.log?.(`hand wait (${b}): ${opts.trials} trials done`);
  }
  return results;
}
