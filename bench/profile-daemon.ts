/**
 * Where the daemon's CPU goes while workers stream: runs a daemon under `node --cpu-prof` (via
 * NODE_OPTIONS, so the profile is written when `hand daemon stop` ends it), streams N tmux mock
 * workers for a while, and prints the top functions by self time, grouped by file.
 * (`--cpu-prof` is refused in NODE_OPTIONS, so the daemon is started directly under it.)
 * Run: `npx tsx bench/profile-daemon.ts [workers=10] [seconds=10]` (not part of npm run bench).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './lib/world.ts';
import { HAND_BIN, makeDaemonWorld, procUsage } from './lib/daemon.ts';
import { killIfAlive, onCleanup, runCleanups } from './lib/cleanup.ts';
import { printSelfTime, type CpuProfile } from './lib/cpu-profile.ts';


const workers = Number(process.argv[2] ?? 10);
const seconds = Number(process.argv[3] ?? 10);
try {
  const world = makeWorld('profile');
  const profDir = join(world.root, 'prof');
  // --cpu-prof is refused in NODE_OPTIONS: start `hand daemon run` ourselves under it, before
  // makeDaemonWorld's `hand daemon start` (which then finds it running).
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, HAND_BIN, 'daemon', 'run', '--home', join(world.root, 'state')], { env: world.workerEnv(), stdio: 'ignore' });
  onCleanup('profiled daemon', () => killIfAlive(child.pid!));
  for (let i = 0; i < 300 && !existsSync(join(world.root, 'state', 'hand.sock')); i++) await new Promise((r) => setTimeout(r, 50));
  const d = await makeDaemonWorld(world);
  const pid = await d.pid();
  for (let i = 0; i < workers; i++) {
    await d.dispatch(`s${i}`, 'tmux', world.workerEnv());
    await d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' });
  }
  const a = procUsage(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const b = procUsage(pid);
  console.log(`daemon ${pid}: ${(((b.cpuMs - a.cpuMs) / (performance.now() - t0)) * 100).toFixed(1)} % of a core with ${workers} streaming workers`);
  // The CPU profile spans the dispatches too: count what the daemon spawns while only streaming.
  // (strace -p stops the daemon on every syscall, so this window is not the CPU window above.)
  const traceFile = join(world.root, 'execve.trace');
  const strace = spawn('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', traceFile, '-p', String(pid)], { stdio: 'ignore' });
  onCleanup('strace', () => killIfAlive(strace.pid!));
  await new Promise((r) => setTimeout(r, 5_000));
  strace.kill('SIGINT');
  for (let i = 0; i < 100 && strace.exitCode === null && strace.signalCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const spawned = new Map<string, number>();
  for (const m of (existsSync(traceFile) ? readFileSync(traceFile, 'utf8') : '').matchAll(/execve\("[^"]*", \[([^\]]*)\]/g)) {
    const key = m[1]!.split(', ').slice(0, 3).join(' ').replace(/\/tmp\/[^" ]+/g, '<tmp>');
    spawned.set(key, (spawned.get(key) ?? 0) + 1);
  }
  console.log(`execve by the daemon and its children over 5 s of streaming (strace): ${[...spawned.values()].reduce((x, y) => x + y, 0)}`);
  for (const [k, v] of [...spawned].sort((x, y) => y[1] - x[1]).slice(0, 8)) console.log(`  ${String(v).padStart(5)}  ${k}`);
  await d.hand(['daemon', 'stop']);
  for (let i = 0; i < 200 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const file = readdirSync(profDir).find((f) => f.includes(`.${pid}.`));
  if (!file) throw new Error(`no profile for daemon ${pid} in ${profDir}`);
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile;
  printSelfTime(prof);
} finally {
  await runCleanups(console.error);
}
