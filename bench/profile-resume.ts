/**
 * Where resume time goes: grows a tmux fleet of N idle workers (as figure 4 does), SIGKILLs the
 * daemon, starts `hand daemon run` again directly under `node --cpu-prof` (what `hand daemon
 * start` spawns, minus the starter process), polls `status` until every worker is live, then
 * stops it so V8 writes the profile, and prints the daemon's self time by function and file.
 * Run: `npx tsx bench/profile-resume.ts [workers=100]` (not part of npm run bench).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorld } from './lib/world.ts';
import { HAND_BIN, makeDaemonWorld, type StatusRow } from './lib/daemon.ts';
import { alive, killIfAlive, onCleanup, runCleanups, cleanUpWhenCutShort } from './lib/cleanup.ts';

cleanUpWhenCutShort((msg) => process.stderr.write(`${msg}\n`));
import { printCallers, printSelfTime, type CpuProfile } from './lib/cpu-profile.ts';
import { growTo } from './resume.ts';
import { nowMs } from './lib/stats.ts';

const workers = Number(process.argv[2] ?? 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const world = makeWorld('profile-resume');
  const d = await makeDaemonWorld(world);
  await growTo(d, workers, () => world.workerEnv(), console.error);
  // First, plain restarts (no profiler, no strace): the time to all live, and where the daemon's
  // own log says it went.
  for (let trial = 0; trial < Number(process.env.PLAIN_TRIALS ?? 2); trial++) {
    const was = await d.pid();
    process.kill(was, 'SIGKILL');
    for (let k = 0; k < 200 && alive(was); k++) await sleep(25);
    const t0 = nowMs();
    const wallT0 = Date.now();
    const plain = spawn(process.execPath, [HAND_BIN, 'daemon', 'run', '--home', d.home], { env: d.env, stdio: 'ignore', detached: true });
    plain.unref();
    onCleanup('plain daemon', () => killIfAlive(plain.pid!));
    for (;;) {
      const list = await d.rpc('status').catch(() => null);
      if (list && list.length === workers && list.every((r) => r.live === true)) break;
      if (nowMs() - t0 > 60_000) throw new Error(`after 60 s not all ${workers} workers live`);
      await sleep(20);
    }
    console.log(`plain restart ${trial + 1}: daemon run spawned → all ${workers} live ${(nowMs() - t0).toFixed(0)} ms`);
    const restoredLine = readFileSync(join(d.home, 'daemon.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { time: number; msg: string }).filter((l) => l.time >= wallT0 && l.msg === 'fleet restored').at(-1);
    console.log(`  the daemon's log: ${JSON.stringify(restoredLine)}`);
  }
  const old = await d.pid();
  process.kill(old, 'SIGKILL');
  for (let k = 0; k < 200 && alive(old); k++) await sleep(25);

  const profDir = join(world.root, 'prof');
  const t0 = nowMs();
  // Under strace (seccomp filter: only execve stops the process) to count what resume spawns.
  const traceFile = join(world.root, 'execve.trace');
  const node = [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profDir}`, HAND_BIN, 'daemon', 'run', '--home', d.home];
  const child = spawn('strace', ['-f', '-qq', '-s', '200', '--seccomp-bpf', '-e', 'trace=execve', '-o', traceFile, ...node], { env: d.env, stdio: 'ignore' });
  onCleanup('profiled daemon', () => killIfAlive(child.pid!));
  let firstAnswer = 0;
  for (;;) {
    const list = await d.rpc('status').catch(() => null);
    if (list && !firstAnswer) firstAnswer = nowMs() - t0;
    if (list && list.length === workers && list.every((r) => r.live === true)) break;
    if (nowMs() - t0 > 60_000) throw new Error(`after 60 s not all ${workers} workers live`);
    await sleep(20);
  }
  console.log(`daemon run spawned → first status answer ${firstAnswer.toFixed(0)} ms → all ${workers} live ${(nowMs() - t0).toFixed(0)} ms`);
  // What the daemon itself logged on the way, in ms after the spawn (the log's clock is Date.now()).
  const wallT0 = Date.now() - (nowMs() - t0);
  const logLines = readFileSync(join(d.home, 'daemon.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { time: number; msg: string });
  for (const l of logLines.filter((x) => x.time >= wallT0).slice(0, 25)) console.log(`  ${String(l.time - wallT0).padStart(6)} ms  ${l.msg}`);
  await d.hand(['daemon', 'stop']);
  for (let i = 0; i < 200 && child.exitCode === null; i++) await sleep(50);
  const spawned = new Map<string, number>();
  for (const m of readFileSync(traceFile, 'utf8').matchAll(/execve\("[^"]*", \[([^\]]*)\].*\) = 0$/gm)) {
    // program + its first words after tmux's `-S <socket> -f <conf>`: which command it was
    const argv = m[1]!.split(', ').map((a) => a.replace(/^"|"$/g, ''));
    const rest = argv[0]?.endsWith('tmux') ? argv.slice(argv.indexOf('-f') >= 0 ? argv.indexOf('-f') + 2 : 1) : argv.slice(1);
    const key = [argv[0]!.split('/').pop(), ...rest.slice(0, 2)].join(' ').replace(/\/tmp\/\S+/g, '<tmp>').replace(/%\d+|\$\d+|@\d+/g, '<id>');
    spawned.set(key, (spawned.get(key) ?? 0) + 1);
  }
  console.log(`execve from daemon start to stop (strace): ${[...spawned.values()].reduce((x, y) => x + y, 0)}`);
  for (const [k, v] of [...spawned].sort((x, y) => y[1] - x[1]).slice(0, 10)) console.log(`  ${String(v).padStart(5)}  ${k}`);
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${profDir}`);
  // the profile covers start-up to stop: the resume is nearly all of it (the stop is milliseconds)
  const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile;
  printSelfTime(profile, 25, 14);
  printCallers(profile, 4, 5);
} finally {
  await runCleanups(console.error);
}
