// Ad-hoc: blocked detection with N streaming tmux workers, the daemon / tmux server reniced or not.
// npx tsx bench/lib/try-200.ts [workers=200] [trials=8]
import { execFileSync } from 'node:child_process';
import { makeWorld } from './world.ts';
import { makeDaemonWorld, procUsage } from './daemon.ts';
import { pool } from './pool.ts';
import { runCleanups } from './cleanup.ts';
import { probeBlocked } from '../fleet-scale.ts';
const n = Number(process.argv[2] ?? 200);
const trials = Number(process.argv[3] ?? 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
try {
  const world = makeWorld('try200');
  const d = await makeDaemonWorld(world);
  const probeLog = world.eventLog('probe');
  await d.dispatch('probe', 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: probeLog }));
  const tmuxPid = d.noteTmuxServer()!;
  const ids = Array.from({ length: n }, (_, k) => `s${k}`);
  await pool(ids, 4, (id) => d.dispatch(id, 'tmux', d.env));
  for (const id of ids) await d.rpc('send', { id, text: 'MODE:hang stream' });
  await sleep(2000);
  const pid = await d.pid();
  const report = async (label: string) => {
    const s = await probeBlocked(d, 'probe', probeLog, trials);
    console.log(`${label}: p50 ${q(s, 0.5).toFixed(1)} p95 ${q(s, 0.95).toFixed(1)} ms  [${s.map((x) => x.toFixed(0)).join(' ')}]`);
  };
  const cpu = async () => {
    const a = [procUsage(pid).cpuMs, procUsage(tmuxPid).cpuMs]; const t = performance.now(); await sleep(8000);
    const ms = performance.now() - t;
    console.log(`daemon ${(((procUsage(pid).cpuMs - a[0]!) / ms) * 100).toFixed(1)} %, tmux server ${(((procUsage(tmuxPid).cpuMs - a[1]!) / ms) * 100).toFixed(1)} % of a core`);
  };
  await cpu();
  await report('as is');
} finally {
  await runCleanups(console.error);
}
