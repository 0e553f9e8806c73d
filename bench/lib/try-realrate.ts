// Daemon CPU, the control client's counts and one pane's stages at Claude Code's real byte rate (TRY_IDLE=1: the
// same fleet idle): npx tsx bench/lib/try-realrate.ts [workers=20] [window ms=8000]. The trace costs the daemon a
// little (a file append per stage of pane %1): compare runs of this script with each other, not with the bench.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './world.ts';
import { cpuShare, makeDaemonWorld } from './daemon.ts';
import { runCleanups } from './cleanup.ts';
const n = Number(process.argv[2] ?? 20);
const windowMs = Number(process.argv[3] ?? 8000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const world = makeWorld('realrate');
  const traceFile = join(world.root, 'trace.jsonl');
  writeFileSync(traceFile, '');
  const d = await makeDaemonWorld(world, { KH_TRACE_TIMING: traceFile });
  const tmuxPid = d.noteTmuxServer();
  for (let i = 0; i < n; i++) {
    await d.dispatch(`s${i}`, 'tmux', world.workerEnv({ KH_MOCK_STREAM: 'real' }));
    if (!process.env.TRY_IDLE) await d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' });
  }
  await sleep(2000);
  const pid = await d.pid();
  const countsAt = () => readFileSync(traceFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.stage === 'counts').at(-1);
  const a = countsAt();
  const [daemonPct, tmuxPct] = await Promise.all([cpuShare(pid, windowMs), tmuxPid ? cpuShare(tmuxPid, windowMs) : Promise.resolve(null)]);
  await sleep(5200);
  const b = countsAt();
  const dt = (b.t - a.t) / 1000;
  const rate: Record<string, string> = {};
  for (const k of Object.keys(b)) if (k !== 'stage' && k !== 't') rate[k] = ((b[k] - a[k]) / dt).toFixed(0);
  const stages: Record<string, number> = {};
  for (const e of readFileSync(traceFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l))) if (e.t >= a.t && e.t <= b.t && e.stage !== 'counts') stages[e.stage] = (stages[e.stage] ?? 0) + 1;
  console.error('pane %1 stages over the window:', JSON.stringify(stages));
  console.log(`daemon ${daemonPct.toFixed(1)} % of a core for ${n} (${(daemonPct / n).toFixed(2)} % per worker), tmux server ${tmuxPct?.toFixed(1) ?? '?'} %; per second:`, rate);
} finally {
  await runCleanups(console.error);
}
