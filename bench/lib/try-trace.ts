// Where a question's time goes at N streaming workers (issue 46): blocked detection with the stage timestamps of the
// probe pane (io/terminal/trace-timing.ts) and the control client's counts. npx tsx bench/lib/try-trace.ts [workers=200] [trials=8]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './world.ts';
import { cpuShare, makeDaemonWorld } from './daemon.ts';
import { pool } from './pool.ts';
import { runCleanups } from './cleanup.ts';
import { percentile } from './stats.ts';
import { probeBlocked } from '../fleet-scale.ts';
import { awaitEvent } from './mock-events.ts';
const n = Number(process.argv[2] ?? 200);
const trials = Number(process.argv[3] ?? 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const world = makeWorld('trace');
  const traceFile = join(world.root, 'trace.jsonl');
  writeFileSync(traceFile, '');
  const d = await makeDaemonWorld(world, { KH_TRACE_TIMING: traceFile, KH_TRACE_PANE: process.env.KH_TRACE_PANE ?? '%1' });
  const probeLog = world.eventLog('probe');
  await d.dispatch('probe', 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: probeLog }));
  const tmuxPid = d.noteTmuxServer()!;
  const ids = Array.from({ length: n }, (_, k) => `s${k}`);
  const t0 = performance.now();
  await pool(ids, 4, (id) => d.dispatch(id, 'tmux', d.env));
  console.error(`dispatched ${n} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  for (const id of ids) await d.rpc('send', { id, text: process.env.TRY_STREAM ?? 'MODE:hang stream' });
  await sleep(2000);
  const pid = await d.pid();
  const [daemonPct, tmuxPct] = await Promise.all([cpuShare(pid, 5000), cpuShare(tmuxPid, 5000)]);
  console.log(`daemon ${daemonPct.toFixed(1)} %, tmux server ${tmuxPct.toFixed(1)} % of a core`);
  const s = await probeBlocked(d, 'probe', probeLog, trials);
  console.log(`blocked: p50 ${percentile(s, 50).toFixed(1)} p95 ${percentile(s, 95).toFixed(1)} ms  [${s.map((x) => x.toFixed(0)).join(' ')}]`);
  // stage breakdown per trial: menu drawn → first output with the menu → changed → read-sent → read-reply with menu → deliver blocked
  const events = readFileSync(probeLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; t: number });
  const trace = readFileSync(traceFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { stage: string; t: number; menu?: boolean; state?: string; awaiting?: boolean });
  { const outs = trace.filter((x) => x.stage === 'output') as unknown as Array<{ bytes: number; menu: boolean }>; const sizes = outs.filter((o) => !o.menu).map((o) => o.bytes).sort((a, b) => a - b); console.log(`output sizes: not menu p50 ${sizes[Math.floor(sizes.length / 2)]} p95 ${sizes[Math.floor(sizes.length * 0.95)]} max ${sizes.at(-1)}; menu ${outs.filter((o) => o.menu).map((o) => o.bytes).join(' ')}`); }
  const cs = trace.filter((x) => x.stage === 'counts') as unknown as Array<Record<string, number>>;
  for (let i = 1; i < cs.length; i++) { const a = cs[i - 1]!, b = cs[i]!; const dt = (b.t! - a.t!) / 1000; console.log(`per s: ${['outputs', 'outputBytes', 'chunks', 'chunkBytes', 'reads', 'replyBytes', 'probes'].map((k) => `${k} ${((b[k]! - a[k]!) / dt).toFixed(0)}`).join(' ')}`); }
  for (const m of events.filter((e) => e.event === 'menu-drawn')) {
    const after = trace.filter((x) => x.t >= m.t - 1 && x.t < m.t + 20_000);
    const out = after.find((x) => x.stage === 'output' && x.menu);
    const reply = after.find((x) => x.stage === 'read-reply' && x.menu);
    const sentBefore = reply ? [...after].filter((x) => x.stage === 'read-sent' && x.t <= reply.t).pop() : undefined;
    const changed = out ? after.find((x) => x.stage === 'changed' && x.t >= out.t) : undefined;
    const del = after.find((x) => x.stage === 'deliver' && x.awaiting);
    const f = (x?: { t: number }) => (x ? (x.t - m.t).toFixed(0).padStart(6) : '     -');
    console.log(`menu→output ${f(out)}  changed ${f(changed)}  sent ${f(sentBefore)}  reply ${f(reply)}  deliver ${f(del)}  (reads sent between output and reply: ${after.filter((x) => x.stage === 'read-sent' && out && reply && x.t >= out.t && x.t <= reply.t).length})`);
  }
} finally {
  await runCleanups(console.error);
}
