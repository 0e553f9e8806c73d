/**
 * Where the daemon's CPU goes while workers stream: runs a daemon under `node --cpu-prof` (via
 * NODE_OPTIONS, so the profile is written when `hand daemon stop` ends it), streams N tmux mock
 * workers for a while, and prints the top functions by self time, grouped by file.
 * (`--cpu-prof` is refused in NODE_OPTIONS, so the daemon is started directly under it.)
 * Run: `npx tsx bench/profile-daemon.ts [workers=10] [seconds=10]` (not part of npm run bench);
 * PROFILE_MOCK_STREAM=real streams at Claude Code's real byte rate instead of the spinner.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './lib/world.ts';
import { CLK_TCK, HAND_BIN, makeDaemonWorld, procUsage } from './lib/daemon.ts';
import { killIfAlive, onCleanup, runCleanups, cleanUpWhenCutShort } from './lib/cleanup.ts';

cleanUpWhenCutShort((msg) => process.stderr.write(`${msg}\n`));
import { printInclusive, printSelfTime, type CpuProfile } from './lib/cpu-profile.ts';


const workers = Number(process.argv[2] ?? 10);

/** utime/stime ticks of every thread of a process, by tid (/proc/<pid>/task). */
function threadTicks(pid: number): Map<number, { name: string; u: number; s: number }> {
  const out = new Map<number, { name: string; u: number; s: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), u: Number(f[11]), s: Number(f[12]) });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}
const seconds = Number(process.argv[3] ?? 10);
try {
  const world = makeWorld('profile');
  const profDir = join(world.root, 'prof');
  // --cpu-prof is refused in NODE_OPTIONS: start `hand daemon run` ourselves under it, before
  // makeDaemonWorld's `hand daemon start` (which then finds it running).
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, HAND_BIN, 'daemon', 'run', '--home', join(world.root, 'state')], { env: { ...world.workerEnv(), ...(process.env.KH_REPAINT_FILTER !== undefined && { KH_REPAINT_FILTER: process.env.KH_REPAINT_FILTER }) }, stdio: 'ignore' });
  onCleanup('profiled daemon', () => killIfAlive(child.pid!));
  for (let i = 0; i < 300 && !existsSync(join(world.root, 'state', 'hand.sock')); i++) await new Promise((r) => setTimeout(r, 50));
  const d = await makeDaemonWorld(world);
  const pid = await d.pid();
  for (let i = 0; i < workers; i++) {
    // PROFILE_MOCK_STREAM=real: the workers write at Claude Code's real byte rate (mock-agent/real-stream.ts).
    await d.dispatch(`s${i}`, 'tmux', world.workerEnv(process.env.PROFILE_MOCK_STREAM ? { KH_MOCK_STREAM: process.env.PROFILE_MOCK_STREAM } : {}));
    await d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' });
  }
  const a = procUsage(pid);
  const threadsA = threadTicks(pid);
  const t0 = performance.now();
  const w0 = Number(process.hrtime.bigint() / 1000n);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const b = procUsage(pid);
  const w1 = Number(process.hrtime.bigint() / 1000n);
  // V8's profile samples the JS thread only: say where the rest of the process's CPU went.
  const threadsB = threadTicks(pid);
  const perThread = new Map<string, { u: number; s: number }>();
  for (const [tid, t] of threadsB) {
    const was = threadsA.get(tid) ?? { name: t.name, u: 0, s: 0 };
    const name = tid === pid ? `${t.name} (main JS thread)` : t.name.replace(/\d+$/, 'N');
    const acc = perThread.get(name) ?? { u: 0, s: 0 };
    perThread.set(name, { u: acc.u + t.u - was.u, s: acc.s + t.s - was.s });
  }
  const windowS = (performance.now() - t0) / 1000;
  console.log('CPU by thread over the window (% of a core; user + system):');
  for (const [name, t] of [...perThread].sort((x, y) => y[1].u + y[1].s - x[1].u - x[1].s).slice(0, 8)) {
    console.log(`  ${(((t.u + t.s) / CLK_TCK / windowS) * 100).toFixed(1).padStart(5)} %  (user ${((t.u / CLK_TCK / windowS) * 100).toFixed(1)}, system ${((t.s / CLK_TCK / windowS) * 100).toFixed(1)})  ${name}`);
  }
  console.log(`daemon ${pid}: ${(((b.cpuMs - a.cpuMs) / (performance.now() - t0)) * 100).toFixed(1)} % of a core with ${workers} streaming workers`);
  // The CPU profile spans the dispatches too: count what the daemon spawns while only streaming.
  // (strace -p stops the daemon on every syscall, so this window is not the CPU window above.)
  const traceFile = join(world.root, 'execve.trace');
  const strace = spawn('strace', ['-f', '-qq', '-s', '200', '-e', 'trace=execve', '-o', traceFile, '-p', String(pid)], { stdio: 'ignore' });
  onCleanup('strace', () => killIfAlive(strace.pid!));
  await new Promise((r) => setTimeout(r, 5_000));
  strace.kill('SIGINT');
  for (let i = 0; i < 100 && strace.exitCode === null && strace.signalCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const spawned = new Map<string, number>();
  for (const m of (existsSync(traceFile) ? readFileSync(traceFile, 'utf8') : '').matchAll(/execve\("[^"]*", \[([^\]]*)\].*\) = 0$/gm)) {
    // program + its first words after tmux's `-S <socket> -f <conf>`: which command it was
    const argv = m[1]!.split(', ').map((a) => a.replace(/^"|"$/g, ''));
    const rest = argv[0]?.endsWith('tmux') ? argv.slice(argv.indexOf('-f') >= 0 ? argv.indexOf('-f') + 2 : 1) : argv.slice(1);
    const key = [argv[0]!.split('/').pop(), ...rest.slice(0, 2)].join(' ').replace(/\/tmp\/\S+/g, '<tmp>').replace(/%\d+|\$\d+|@\d+/g, '<id>');
    spawned.set(key, (spawned.get(key) ?? 0) + 1);
  }
  console.log(`execve by the daemon and its children over 5 s of streaming (strace): ${[...spawned.values()].reduce((x, y) => x + y, 0)}`);
  for (const [k, v] of [...spawned].sort((x, y) => y[1] - x[1]).slice(0, 8)) console.log(`  ${String(v).padStart(5)}  ${k}`);
  await d.hand(['daemon', 'stop']);
  for (let i = 0; i < 200 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const file = readdirSync(profDir).find((f) => f.includes(`.${pid}.`));
  if (!file) throw new Error(`no profile for daemon ${pid} in ${profDir}`);
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile;
  console.log('-- whole profile (dispatches included):');
  printSelfTime(prof, 8, 6);
  console.log(`-- the ${seconds} s streaming window only:`);
  printSelfTime(prof, 20, 12, [w0, w1]);
  if (process.env.PROFILE_INCLUSIVE) printInclusive(prof, Number(process.env.PROFILE_INCLUSIVE) || 40, [w0, w1]);
} finally {
  await runCleanups(console.error);
}
