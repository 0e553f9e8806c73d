// Ad-hoc: blocked detection with N streaming tmux workers, and the daemon's and tmux server's CPU meanwhile;
// with TRY_RENICE=1 (root) again with the daemon, both, then the tmux server alone at nice -10.
// npx tsx bench/lib/try-200.ts [workers=200] [trials=8]
import { execFileSync } from 'node:child_process';
import { makeWorld } from './world.ts';
import { cpuShare, makeDaemonWorld } from './daemon.ts';
import { pool } from './pool.ts';
import { runCleanups } from './cleanup.ts';
import { percentile } from './stats.ts';
import { probeBlocked } from '../fleet-scale.ts';
const n = Number(process.argv[2] ?? 200);
const trials = Number(process.argv[3] ?? 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
    console.log(`${label}: p50 ${percentile(s, 50).toFixed(1)} p95 ${percentile(s, 95).toFixed(1)} ms  [${s.map((x) => x.toFixed(0)).join(' ')}]`);
  };
  const [daemonPct, tmuxPct] = await Promise.all([cpuShare(pid, 8000), cpuShare(tmuxPid, 8000)]);
  console.log(`daemon ${daemonPct.toFixed(1)} %, tmux server ${tmuxPct.toFixed(1)} % of a core`);
  await report('as is');
  if (process.env.TRY_RENICE) {
    const renice = (n: number, p: number) => execFileSync('renice', ['-n', String(n), '-p', String(p)]);
    renice(-10, pid);
    await report('daemon at nice -10');
    renice(-10, tmuxPid);
    await report('daemon and tmux server at nice -10');
    renice(0, pid);
    await report('tmux server alone at nice -10');
  }
} finally {
  await runCleanups(console.error);
}
