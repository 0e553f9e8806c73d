// Ad-hoc: `perf record` of a daemon with N streaming tmux workers. npx tsx bench/lib/try-perf.ts [workers] [seconds]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { makeWorld } from './world.ts';
import { makeDaemonWorld } from './daemon.ts';
import { killIfAlive, onCleanup, runCleanups } from './cleanup.ts';
const n = Number(process.argv[2] ?? 10);
const secs = Number(process.argv[3] ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const world = makeWorld('perf');
  const d = await makeDaemonWorld(world, { NODE_OPTIONS: '--perf-basic-prof' });
  const pid = await d.pid();
  for (let i = 0; i < n; i++) { await d.dispatch(`s${i}`, 'tmux', d.env); await d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' }); }
  await sleep(3000);
  const out = process.env.PERF_OUT ?? join(world.root, 'perf.data');
  const st = spawn('perf', ['record', '-F', '999', '-g', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  onCleanup('perf', () => killIfAlive(st.pid!));
  await sleep(secs * 1000);
  st.kill('SIGINT');
  for (let i = 0; i < 200 && st.exitCode === null && st.signalCode === null; i++) await sleep(50);
  console.log(`perf data: ${out} (daemon ${pid})`);
} finally {
  await runCleanups(console.error);
}
