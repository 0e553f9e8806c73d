/**
 * Figures 3, 4 and 5 on one real daemon (tmux backend):
 *  3. fleet scale — 1, 10, 50 mock workers streaming (MODE:hang with a 100 ms tick: ~10 screen
 *     updates per second each): daemon CPU (% of one core, /proc/<pid>/stat deltas) and RSS,
 *     per streaming worker over an idle-daemon baseline, and blocked detection of a probe worker
 *     at that load (daemon socket push, no CLI start-up in it);
 *  5. CLI round trip — `hand status --json` with 50+ workers, process start included, next to
 *     `node -e ''` and `hand --version` so the share of tsx's loader is visible;
 *  4. resume (bench/resume.ts) — on the same fleet, then grown to 100 (4 dispatches in flight):
 *     the daemon SIGKILLed and started again, time to the first status listing every worker live.
 * `parts` picks any of scale / cli / resume (BENCH_ONLY); resume alone grows an idle fleet.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ensureBundle } from './lib/bundle.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { CLK_TCK, HAND_BIN, makeDaemonWorld, procUsage, runProcess, type DaemonWorld, type StatusRow } from './lib/daemon.ts';
import { pool } from './lib/pool.ts';
import { GROW_CONCURRENCY, growTo, measureResume, restartDaemon, resumeResult } from './resume.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, single, summarise } from './lib/stats.ts';
import { streamLoads } from './stream-loads.ts';

export interface ScaleOptions {
  levels: number[];
  probeTrials: number;
  cpuWindowMs: number;
  statusTrials: number;
  /** Fleet sizes to measure resume at, on the way up (a size below the fleet already built means that fleet). */
  resumeSizes: number[];
  resumeTrials: number;
  /** Levels at which blocked detection is measured again on the same fleet with the daemon restarted as before issue 46 (KH_READ_LANES=0: reads unbounded, unordered), beside the figure. */
  readBaselineLevels?: number[];
  /** Levels at which the spinner load and Claude Code's real byte rate are measured beside each other (stream-loads.ts). */
  streamLevels?: number[];
  /** Which parts to run (BENCH_ONLY=scale,cli,resume,streams); resume alone grows an idle fleet. */
  parts: { scale: boolean; cli: boolean; resume: boolean; streams?: boolean };
  log?: (m: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** All cores' busy and total jiffies since boot (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total }; // idle + iowait are not busy
}

/** CPU ticks of every mock agent process now running, by pid (/proc/<pid>/cmdline names bin/mock-agent.js). */
function agentTicks(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('mock-agent.js')) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(entry), Number(f[11]) + Number(f[12]));
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/**
 * Daemon CPU (% of one core) and RSS over a window, with three counters that say whether the
 * daemon was starved: the whole machine's busy share, the tmux server's CPU and the mock agents'
 * own CPU (the load generator competes for the same two cores).
 */
export async function cpuAndRss(pid: number, windowMs: number, tmuxPid: number | null = null): Promise<{ cpuPct: number; rssMb: number; machinePct: number; tmuxPct: number | null; agentsPct: number }> {
  const a = procUsage(pid);
  const ta = tmuxPid ? procUsage(tmuxPid) : null;
  const agentsA = agentTicks();
  const ma = machineTicks();
  const t0 = performance.now();
  await sleep(windowMs);
  const b = procUsage(pid);
  const tb = tmuxPid ? procUsage(tmuxPid) : null;
  const mb = machineTicks();
  const ms = performance.now() - t0;
  let agentTicksUsed = 0;
  for (const [p, t] of agentTicks()) if (agentsA.has(p)) agentTicksUsed += t - agentsA.get(p)!;
  return {
    agentsPct: ((agentTicksUsed * 1000) / CLK_TCK / ms) * 100,
    cpuPct: ((b.cpuMs - a.cpuMs) / ms) * 100,
    rssMb: b.rssBytes / 2 ** 20,
    machinePct: ((mb.busy - ma.busy) / (mb.total - ma.total)) * 100,
    tmuxPct: ta && tb ? ((tb.cpuMs - ta.cpuMs) / ms) * 100 : null,
  };
}

export async function probeBlocked(d: DaemonWorld, id: string, log: string, trials: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < trials; i++) {
    const sentAt = nowMs();
    const blocked = d.watchUntil(id, 'blocked', (r) => r.awaitingInput || r.condition === 'blocked');
    await blocked.ready;
    await d.rpc('send', { id, text: `MODE:ask probe ${i}` });
    const at = await blocked.done;
    samples.push(at - (await awaitEvent(log, 'menu-drawn', sentAt)).t);
    // under load the actor may go from blocked straight to settled: leaving blocked is enough
    const back = d.watchUntil(id, 'out of blocked after the answer', (r) => !r.awaitingInput && r.condition !== 'blocked');
    await back.ready;
    await d.rpc('keys', { id, key: 'enter' });
    await back.done;
    await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
  }
  return samples;
}

/** A failure carries the figures measured before it, so they are still reported. */
export class PartialResults extends Error {
  constructor(message: string, readonly partial: BenchResult[]) {
    super(message);
  }
}

export async function run(o: ScaleOptions): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  try {
    return await measure(o, out);
  } catch (err) {
    throw new PartialResults(err instanceof Error ? err.message : String(err), out);
  }
}

async function measure(o: ScaleOptions, out: BenchResult[]): Promise<BenchResult[]> {
  const world = makeWorld('scale');
  const d = await makeDaemonWorld(world);
  const env = (extra: Record<string, string> = {}) => world.workerEnv(extra);
  const probeLog = world.eventLog('probe');
  await d.dispatch('probe', 'tmux', env({ KH_MOCK_EVENT_LOG: probeLog }));
  d.noteTmuxServer();

  // First, on a daemon with no fleet yet: the two loads beside each other (issue 46, item 3).
  if (o.parts.streams) await streamLoads({ levels: o.streamLevels ?? [1, 20], probeTrials: o.probeTrials, cpuWindowMs: o.cpuWindowMs, log: o.log }, d, out, probeLog);
  if (o.parts.scale) await scale(o, d, out, probeLog);
  if (o.parts.cli) await roundTrip(o, d, out);
  if (o.parts.resume) {
    const measured = new Set<number>();
    for (const wanted of o.resumeSizes) {
      // the scale fleet (probe + 50) already exceeds 50: measure at what is there
      const size = Math.max(wanted, (await d.rpc('status')).length);
      if (measured.has(size)) continue;
      measured.add(size);
      await growTo(d, size, () => env(), o.log);
      out.push(resumeResult(size, await measureResume(d, size, o.resumeTrials)));
      o.log?.(`resume of ${size}: p50 ${out.at(-1)!.p50} ms, p95 ${out.at(-1)!.p95} ms`);
    }
  }
  return out;
}

async function scale(o: ScaleOptions, d: DaemonWorld, out: BenchResult[], probeLog: string): Promise<void> {
  const env = () => d.env;
  // The idle baseline is a floor under every per-worker figure: two windows, the lower kept, so
  // one-off work of a daemon just started (a backup, the first dispatch's follow-ups) is not
  // subtracted from the streaming figures as if it were idle cost (one run read 3.2 % against
  // 0.6-0.7 % in every other, and the per-worker figures at 1 and 10 came out negative).
  const pid = await d.pid();
  const windows = [await cpuAndRss(pid, o.cpuWindowMs), await cpuAndRss(pid, o.cpuWindowMs)];
  const base = windows[0]!.cpuPct <= windows[1]!.cpuPct ? windows[0]! : windows[1]!;
  out.push(single('fleet scale: idle daemon (1 idle probe worker)', '% of a core', base.cpuPct, null, `the lower of two ${o.cpuWindowMs / 1000} s windows (${windows.map((w) => w.cpuPct.toFixed(2)).join(' / ')} %); RSS ${base.rssMb.toFixed(1)} MB`, 2));

  const streaming: string[] = [];
  for (const level of o.levels) {
    const ids = Array.from({ length: level - streaming.length }, (_, k) => `stream-${streaming.length + k}`);
    const t0 = performance.now();
    await pool(ids, GROW_CONCURRENCY, async (id) => {
      await d.dispatch(id, 'tmux', env());
      d.noteTmuxServer();
    });
    o.log?.(`fleet scale: ${ids.length} dispatched in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // hang keeps the spinner and timer ticking every KH_MOCK_TICK_MS (100 ms) with no end
    for (const id of ids) await d.rpc('send', { id, text: 'MODE:hang stream' });
    streaming.push(...ids);
    await sleep(2_000);
    const pid = await d.pid();
    const load = await cpuAndRss(pid, o.cpuWindowMs, d.noteTmuxServer());
    const perCpu = (load.cpuPct - base.cpuPct) / level;
    const perRss = (load.rssMb - base.rssMb) / level;
    out.push(single(`fleet scale ${level} streaming: daemon CPU`, '% of a core', load.cpuPct, null, `over ${o.cpuWindowMs / 1000} s; idle baseline ${base.cpuPct.toFixed(1)} %; meanwhile the machine was ${load.machinePct.toFixed(0)} % busy (all cores) and the tmux server used ${load.tmuxPct?.toFixed(1) ?? '?'} % of a core and the ${level + 1} mock agents ${load.agentsPct.toFixed(0)} %`));
    out.push(single(`fleet scale ${level} streaming: daemon CPU per streaming worker`, '% of a core', perCpu, level === 1 ? 1 : 0.3, undefined, 2));
    out.push(single(`fleet scale ${level} streaming: daemon RSS per streaming worker`, 'MB', perRss, 10, `daemon RSS ${load.rssMb.toFixed(1)} MB, idle baseline ${base.rssMb.toFixed(1)} MB`));
    const lat = await probeBlocked(d, 'probe', probeLog, o.probeTrials);
    const target = level >= 200 ? 50 : level >= 50 ? 500 : null;
    out.push(summarise(`fleet scale ${level} streaming: menu drawn → blocked pushed on the socket`, 'ms', lat, target, `machine ${load.machinePct.toFixed(0)} % busy over the CPU window`));
    if (o.readBaselineLevels?.includes(level)) {
      // The same fleet, the same run: the daemon restarted with reads unbounded (before issue 46), then back.
      const total = (await d.rpc('status')).length;
      await restartDaemon(d, total, { KH_READ_LANES: '0' });
      await sleep(2_000);
      const before = await probeBlocked(d, 'probe', probeLog, o.probeTrials);
      out.push(summarise(`fleet scale ${level} streaming: menu drawn → blocked pushed, BASELINE reads unbounded (KH_READ_LANES=0, before issue 46)`, 'ms', before, null, `same fleet and run; with read lanes: p50 ${out.at(-1)!.p50} / p95 ${out.at(-1)!.p95} ms`));
      await restartDaemon(d, total);
      await sleep(2_000);
    }
    o.log?.(`fleet scale ${level}: cpu ${load.cpuPct.toFixed(1)} %, rss ${load.rssMb.toFixed(0)} MB, blocked p50 ${out.at(-1)!.p50} ms`);
  }
  // Quiet the fleet (Escape ends a hang) so the round trip and resume are measured without the
  // streaming load on a 2-core machine.
  for (const id of streaming) await d.rpc('keys', { id, key: 'escape' });
  await pool(streaming, 10, async (id) => void (await d.rpc('wait', { id, until: 'settled', timeoutMs: 60_000 })));
}

async function roundTrip(o: ScaleOptions, d: DaemonWorld, out: BenchResult[]): Promise<void> {
  // 5. CLI round trip, with the parts of a process start separated.
  const rows = (await d.rpc('status')).length;
  const times = async (argv: string[], n: number, extraEnv: Record<string, string> = {}) => {
    const t: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await runProcess(argv, { ...d.env, ...extraEnv });
      if (r.code !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
      t.push(r.endedAt - r.startedAt);
    }
    return t;
  };
  // bin/hand.js runs the esbuild bundle in dist/ when `npm ci` (prepare) built it, else the
  // sources through tsx: measure both, so the loader's share is a measured figure. It ignores a
  // bundle older than any source file (other sessions edit sources while this runs): rebuild a
  // stale one just before measuring, and say which of the two was measured.
  const bundled = ensureBundle(o.log);
  const bare = await times([process.execPath, '-e', ''], o.statusTrials);
  const version = await times([process.execPath, HAND_BIN, '--version'], o.statusTrials);
  const status = await times([process.execPath, HAND_BIN, '--home', d.home, 'status', '--json'], o.statusTrials);
  const source = bundled ? await times([process.execPath, HAND_BIN, '--home', d.home, 'status', '--json'], o.statusTrials, { HAND_FROM_SOURCE: '1' }) : status;
  out.push(summarise(`CLI round trip: \`hand status --json\` with ${rows} workers`, 'ms', status, 150, `median is p50; process start included; ${bundled ? 'from the dist/ bundle' : 'no fresh dist/ bundle (run `npm run build`): sources through tsx'}`));
  if (bundled) out.push(summarise(`CLI round trip from sources (HAND_FROM_SOURCE=1, tsx loader), ${rows} workers`, 'ms', source, null));
  // `hand wait` on a worker that already rests answers at once: its start, as a Hand's Monitor runs it.
  const wait = await times([process.execPath, HAND_BIN, '--home', d.home, 'wait', 'probe', '--until', 'any', '--json'], o.statusTrials);
  out.push(summarise('CLI start-up: `node -e \'\'`', 'ms', bare, null, 'Node itself'));
  out.push(summarise(`CLI start-up: \`hand --version\` (${bundled ? 'bundle' : 'tsx loader'} + commander, no daemon)`, 'ms', version, null));
  out.push(summarise(`CLI start-up: \`hand wait probe --until any --json\` (a resting worker, ${rows} workers)`, 'ms', wait, null));
  // The issue-26 targets are ratios to Node's own start measured in the same run.
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (xs: number[]) => p50(xs) / p50(bare);
  out.push(single('CLI start-up ratio: `hand --version` ÷ `node -e \'\'` (p50s)', '×', ratio(version), 1.3, `${p50(version).toFixed(0)} ms vs ${p50(bare).toFixed(0)} ms`));
  out.push(single(`CLI start-up ratio: \`hand status --json\` ÷ \`node -e ''\` (p50s, ${rows} workers)`, '×', ratio(status), 1.6, `${p50(status).toFixed(0)} ms vs ${p50(bare).toFixed(0)} ms`));
  out.push(single('CLI start-up ratio: `hand wait` ÷ `node -e \'\'` (p50s)', '×', ratio(wait), 1.6, `${p50(wait).toFixed(0)} ms vs ${p50(bare).toFixed(0)} ms`));
  o.log?.(`status round trip p50 ${status.length ? out.find((r) => r.name.startsWith('CLI round trip'))!.p50 : 0} ms with ${rows} workers`);
}
