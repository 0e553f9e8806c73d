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

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

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
  await d.hand(['daemon', 'stop']);
  for (let i = 0; i < 200 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const file = readdirSync(profDir).find((f) => f.includes(`.${pid}.`));
  if (!file) throw new Error(`no profile for daemon ${pid} in ${profDir}`);
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    const url = n.callFrame.url.replace(/^.*\/(node_modules\/[^/]+|work\/main)\//, '$1/');
    const key = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    if (n.callFrame.functionName !== '(idle)') byFile.set(url || '(native/gc)', (byFile.get(url || '(native/gc)') ?? 0) + dt);
  });
  const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  console.log(`profile ${(total / 1e6).toFixed(1)} s, busy ${(((total - idle) / total) * 100).toFixed(1)} %; top self time (share of busy time):`);
  for (const [k, v] of [...self].filter(([k]) => !k.startsWith('(idle)')).sort((x, y) => y[1] - x[1]).slice(0, 20)) {
    console.log(`${((v / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${k}`);
  }
  console.log('top files by self time (share of busy time):');
  for (const [k, v] of [...byFile].sort((x, y) => y[1] - x[1]).slice(0, 12)) console.log(`${((v / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${k}`);
} finally {
  await runCleanups(console.error);
}
