// Issue 46, the cut frames: N spinner workers, one daemon, measured alternately with a repaint key per burst across tmux's
// pieces (as now) and a key per %output line (KH_REPAINT_KEY=line, as before), restarted between arms on the same fleet:
// the machine's idle share, daemon CPU, reads and %output lines a second (trace counts), and menu drawn → blocked pushed.
// npx tsx bench/lib/try-cut-keys.ts [workers=200] [trials=12] [rounds=2]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './world.ts';
import { cpuShare, makeDaemonWorld } from './daemon.ts';
import { pool } from './pool.ts';
import { runCleanups } from './cleanup.ts';
import { percentile } from './stats.ts';
import { probeBlocked } from '../fleet-scale.ts';
import { restartDaemon } from '../resume.ts';

const n = Number(process.argv[2] ?? 200);
const trials = Number(process.argv[3] ?? 12);
const rounds = Number(process.argv[4] ?? 2);
const stream = process.env.TRY_STREAM ?? 'MODE:hang stream';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function idleTicks(): { idle: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: (f[3] ?? 0) + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
}

try {
  const world = makeWorld('cut-keys');
  const traceFile = join(world.root, 'trace.jsonl');
  writeFileSync(traceFile, '');
  const traceEnv = { KH_TRACE_TIMING: traceFile, KH_TRACE_PANE: '%0' };
  const d = await makeDaemonWorld(world, traceEnv);
  const probeLog = world.eventLog('probe');
  await d.dispatch('probe', 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: probeLog }));
  const ids = Array.from({ length: n }, (_, k) => `s${k}`);
  const t0 = performance.now();
  // TRY_MOCK_STREAM=real: the workers write at Claude Code's real byte rate (mock-agent/real-stream.ts).
  await pool(ids, 4, (id) => d.dispatch(id, 'tmux', { ...d.env, ...(process.env.TRY_MOCK_STREAM && { KH_MOCK_STREAM: process.env.TRY_MOCK_STREAM }) }));
  console.error(`dispatched ${n} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  for (const id of ids) await d.rpc('send', { id, text: stream });
  const total = n + 1;
  const rows: string[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const arm of ['burst', 'line'] as const) {
      await restartDaemon(d, total, { ...traceEnv, KH_REPAINT_KEY: arm === 'line' ? 'line' : 'burst' });
      await sleep(3000);
      const pid = await d.pid();
      const a = idleTicks();
      const from = Date.now();
      const cpu = await cpuShare(pid, 11_000);
      const to = Date.now();
      const b = idleTicks();
      const idle = (100 * (b.idle - a.idle)) / (b.total - a.total);
      const cs = readFileSync(traceFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, number>)
        .filter((x) => (x as { stage?: unknown }).stage === 'counts' && x.t! >= from && x.t! <= to);
      const c0 = cs[0], c1 = cs.at(-1);
      const dt = c0 && c1 && c1 !== c0 ? (c1.t! - c0.t!) / 1000 : NaN;
      const per = (k: string) => (c0 && c1 ? ((c1[k]! - c0[k]!) / dt).toFixed(0) : '?');
      const s = await probeBlocked(d, 'probe', probeLog, trials);
      const row = `round ${r + 1} key per ${arm.padEnd(5)}: machine idle ${idle.toFixed(0)} %, daemon ${cpu.toFixed(1)} % of a core, reads/s ${per('reads')}, %output lines/s ${per('outputs')}, replies ${per('replyBytes')} B/s; blocked p50 ${percentile(s, 50).toFixed(0)} p95 ${percentile(s, 95).toFixed(0)} ms [${s.map((x) => x.toFixed(0)).join(' ')}]`;
      console.log(row);
      rows.push(row);
    }
  }
  console.log(`\n${n} workers on ${stream} (KH_MOCK_STREAM=${process.env.TRY_MOCK_STREAM ?? 'spinner'}), ${trials} trials per arm:\n${rows.join('\n')}`);
} finally {
  await runCleanups(console.error);
}
