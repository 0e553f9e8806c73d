/**
 * Issue 46, item 3: the daemon under Claude Code's real byte rate beside the spinner load, at the
 * same level in the same run. Two pools of mock workers on one daemon: one streams the spinner
 * alone (MODE:hang, ~2 KB/s each), the other as Claude Code does at its peak (KH_MOCK_STREAM=real,
 * ~0.3 MB/s each with ~95 KB full-screen redraws, mock-agent/real-stream.ts). At each level the
 * spinner pool streams, is measured and quieted, then the real pool: daemon CPU per streaming
 * worker over the idle daemon (target ≤ 0.3 % at 20), menu drawn → blocked pushed (target p95 ≤
 * 100 ms), and the machine's busy share and the tmux server's CPU beside each, so a starved figure
 * shows as one.
 */
import type { BenchResult } from './types.ts';
import type { DaemonWorld } from './lib/daemon.ts';
import { pool } from './lib/pool.ts';
import { single, summarise } from './lib/stats.ts';
import { cpuAndRss, probeBlocked } from './fleet-scale.ts';
import { GROW_CONCURRENCY } from './resume.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StreamLoadOptions {
  levels: number[];
  probeTrials: number;
  cpuWindowMs: number;
  log?: (m: string) => void;
}

export async function streamLoads(o: StreamLoadOptions, d: DaemonWorld, out: BenchResult[], probeLog: string): Promise<void> {
  // The idle floor: two windows, the lower kept (a daemon just started still does one-off work).
  const pid = await d.pid();
  const idleCpuPct = Math.min((await cpuAndRss(pid, o.cpuWindowMs)).cpuPct, (await cpuAndRss(pid, o.cpuWindowMs)).cpuPct);
  out.push(single('stream loads: idle daemon', '% of a core', idleCpuPct, null, `the lower of two ${o.cpuWindowMs / 1000} s windows`, 2));
  const pools = { spinner: [] as string[], real: [] as string[] };
  for (const level of o.levels) {
    for (const kind of ['spinner', 'real'] as const) {
      const ids = Array.from({ length: level - pools[kind].length }, (_, k) => `${kind}-${pools[kind].length + k}`);
      await pool(ids, GROW_CONCURRENCY, async (id) => {
        await d.dispatch(id, 'tmux', { ...d.env, KH_MOCK_STREAM: kind });
        d.noteTmuxServer();
      });
      pools[kind].push(...ids);
    }
    const figures: Record<string, { perCpu: number; lat: BenchResult; note: string }> = {};
    for (const kind of ['spinner', 'real'] as const) {
      const ids = pools[kind].slice(0, level);
      for (const id of ids) await d.rpc('send', { id, text: 'MODE:hang stream' });
      await sleep(2_000);
      const load = await cpuAndRss(await d.pid(), o.cpuWindowMs, d.noteTmuxServer());
      const perCpu = (load.cpuPct - idleCpuPct) / level;
      const lat = await probeBlocked(d, 'probe', probeLog, o.probeTrials);
      const note = `machine ${load.machinePct.toFixed(0)} % busy, tmux server ${load.tmuxPct?.toFixed(1) ?? '?'} % of a core, the mock agents ${load.agentsPct.toFixed(0)} %; daemon ${load.cpuPct.toFixed(1)} % over ${o.cpuWindowMs / 1000} s, idle ${idleCpuPct.toFixed(1)} %`;
      figures[kind] = { perCpu, lat: summarise('', 'ms', lat, null), note };
      // Quiet the pool (Escape ends a hang) before the other load is measured; the interrupted
      // prompt comes back into the box, and ctrl+u empties it for the next level's send.
      for (const id of ids) await d.rpc('keys', { id, key: 'escape' });
      await pool(ids, 10, async (id) => void (await d.rpc('wait', { id, until: 'settled', timeoutMs: 60_000 })));
      for (const id of ids) await d.rpc('keys', { id, key: 'ctrl+u' });
    }
    const s = figures.spinner!, r = figures.real!;
    out.push(single(`stream loads ${level}: daemon CPU per worker, spinner load`, '% of a core', s.perCpu, null, s.note, 2));
    out.push(single(`stream loads ${level}: daemon CPU per worker, Claude Code's real byte rate (KH_MOCK_STREAM=real)`, '% of a core', r.perCpu, level >= 20 ? 0.3 : null, `${r.note}; spinner load, same run: ${s.perCpu.toFixed(2)} %`, 2));
    out.push({ ...s.lat, name: `stream loads ${level}: menu drawn → blocked pushed, spinner load`, note: s.note });
    out.push({ ...r.lat, name: `stream loads ${level}: menu drawn → blocked pushed, Claude Code's real byte rate`, target: 100, note: `${r.note}; spinner load, same run: p50 ${s.lat.p50} / p95 ${s.lat.p95} ms` });
    o.log?.(`stream loads ${level}: CPU/worker spinner ${s.perCpu.toFixed(2)} % real ${r.perCpu.toFixed(2)} %; blocked p95 spinner ${s.lat.p95} real ${r.lat.p95} ms`);
  }
}
