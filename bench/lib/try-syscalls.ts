// Ad-hoc: syscalls of a daemon with N streaming tmux workers (strace -c), and its CPU in windows.
// npx tsx bench/lib/try-syscalls.ts [workers=10] [seconds=10]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './world.ts';
import { cpuShare, makeDaemonWorld } from './daemon.ts';
import { killIfAlive, onCleanup, runCleanups } from './cleanup.ts';
const n = Number(process.argv[2] ?? 10);
const secs = Number(process.argv[3] ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const world = makeWorld('syscalls');
  const d = await makeDaemonWorld(world, { ...(process.env.KH_REPAINT_FILTER ? { KH_REPAINT_FILTER: process.env.KH_REPAINT_FILTER } : {}), ...(process.env.TRY_PRELOAD ? { NODE_OPTIONS: `--require ${process.env.TRY_PRELOAD}` } : {}) });
  await d.dispatch('probe', 'tmux', d.env);
  const pid = await d.pid();
  await sleep(3000);
  const win = async (label: string) => console.log(`${label}: ${(await cpuShare(pid, 5000)).toFixed(2)} %`);
  await win('idle'); await win('idle');
  for (let i = 0; i < n; i++) { await d.dispatch(`s${i}`, 'tmux', d.env); await d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' }); }
  await sleep(2000);
  await win(`${n} streaming`); await win(`${n} streaming`); await win(`${n} streaming`);
  const out = join(world.root, 'strace.txt');
  const st = spawn('strace', process.env.TRY_SEQ ? ['-f', '-tt', '-o', out, '-p', String(pid)] : ['-c', '-f', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  onCleanup('strace', () => killIfAlive(st.pid!));
  await sleep(secs * 1000);
  st.kill('SIGINT');
  for (let i = 0; i < 100 && st.exitCode === null && st.signalCode === null; i++) await sleep(50);
  console.log(readFileSync(out, 'utf8').split('\n').slice(0, process.env.TRY_SEQ ? 400 : 22).join('\n'));
} finally {
  await runCleanups(console.error);
}
