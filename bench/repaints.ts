/**
 * Issue 26, in one run: daemon CPU per streaming worker with repaints read (KH_REPAINT_FILTER=0:
 * every burst of output a tmux round trip, a parse and an analysis, as before) beside the
 * daemon as shipped (bursts of known repaints go unread, actors/pane-feed.ts). Two daemons, each
 * with N tmux mock workers streaming (MODE:hang, 100 ms tick) and its idle CPU (one idle probe
 * worker; the lower of two windows, taken once the daemon's start-up work is done) subtracted as
 * in the fleet-scale bench; a per-worker figure below zero is reported as within the idle noise,
 * never as a ratio; the windows alternate A/B so a machine that
 * gets busier part-way hurts both alike. Also runnable alone: `npx tsx bench/repaints.ts [workers]`.
 */
import { makeWorld } from './lib/world.ts';
import { cpuShare as cpu, makeDaemonWorld, type DaemonWorld } from './lib/daemon.ts';
import { single } from './lib/stats.ts';
import type { BenchResult } from './types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function daemon(label: string, env: Record<string, string>, windowMs: number): Promise<{ d: DaemonWorld; pid: number; idle: number }> {
  const world = makeWorld(`repaints-${label}`);
  const d = await makeDaemonWorld(world, env);
  await d.dispatch('probe', 'tmux', d.env);
  const pid = await d.pid();
  // A daemon just started still checks and backs up its store: one window caught that and made a
  // later per-worker figure negative. Let it settle, then take the quieter of two windows.
  await sleep(2_000);
  const first = await cpu(pid, windowMs);
  return { d, pid, idle: Math.min(first, await cpu(pid, windowMs)) };
}

export async function run(o: { levels: number[]; windowMs: number; rounds: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const a = await daemon('read-every-burst', { KH_REPAINT_FILTER: '0' }, o.windowMs);
  const b = await daemon('as-shipped', {}, o.windowMs);
  let have = 0;
  for (const level of o.levels) {
    for (const x of [a, b]) {
      for (let i = have; i < level; i++) await x.d.dispatch(`s${i}`, 'tmux', x.d.env);
      for (let i = have; i < level; i++) await x.d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' });
    }
    have = level;
    await sleep(2_000);
    const per = { a: [] as number[], b: [] as number[] };
    for (let r = 0; r < o.rounds; r++) {
      per.a.push(((await cpu(a.pid, o.windowMs)) - a.idle) / level);
      per.b.push(((await cpu(b.pid, o.windowMs)) - b.idle) / level);
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const note = `${o.rounds} alternating windows of ${o.windowMs / 1000} s; idle subtracted (${a.idle.toFixed(2)} / ${b.idle.toFixed(2)} %)`;
    out.push(single(`repaints, ${level} streaming: daemon CPU per worker, every burst read (baseline)`, '% of a core', mean(per.a), null, note, 2));
    const shipped = mean(per.b);
    const versus = shipped > 0 ? `${(mean(per.a) / shipped).toFixed(1)}× less than the baseline beside it` : `below this daemon's idle window (${b.idle.toFixed(2)} %): within the idle noise, no ratio`;
    out.push(single(`repaints, ${level} streaming: daemon CPU per worker, known repaints unread`, '% of a core', shipped, level === 1 ? 1 : 0.3, versus, 2));
    o.log?.(`repaints at ${level}: ${mean(per.a).toFixed(2)} % → ${mean(per.b).toFixed(2)} % of a core per worker`);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runCleanups } = await import('./lib/cleanup.ts');
  try {
    const r = await run({ levels: [Number(process.argv[2] ?? 10)], windowMs: 6_000, rounds: 2, log: console.error });
    for (const x of r) console.log(`${x.name}: ${x.p50.toFixed(2)} ${x.unit}${x.note ? ` (${x.note})` : ''}`);
  } finally {
    await runCleanups();
  }
}
