/**
 * Daemon CPU per streaming worker with and without a change (issue 26), in one run: two daemons
 * side by side in time — one with the env given as BASELINE (e.g. KH_REPAINT_FILTER=0), one as
 * is — each with N tmux mock workers streaming (MODE:hang, 100 ms tick); the idle daemon's CPU
 * (one idle probe worker) is subtracted as in the fleet-scale bench. Rounds alternate A/B so a
 * machine that gets busier part-way hurts both alike.
 * Run: `npx tsx bench/ab-repaints.ts [workers=10] [windowMs=8000] [rounds=2]` (not part of npm run bench).
 */
import { makeWorld } from './lib/world.ts';
import { makeDaemonWorld, procUsage } from './lib/daemon.ts';
import { runCleanups, cleanUpWhenCutShort } from './lib/cleanup.ts';

cleanUpWhenCutShort((msg) => process.stderr.write(`${msg}\n`));
const workers = Number(process.argv[2] ?? 10);
const windowMs = Number(process.argv[3] ?? 8000);
const rounds = Number(process.argv[4] ?? 2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cpu(pid: number, ms: number): Promise<number> {
  const a = procUsage(pid);
  const t0 = performance.now();
  await sleep(ms);
  const b = procUsage(pid);
  return ((b.cpuMs - a.cpuMs) / (performance.now() - t0)) * 100;
}

async function daemon(label: string, env: Record<string, string>) {
  const world = makeWorld(`ab-${label}`);
  const d = await makeDaemonWorld(world, env);
  await d.dispatch('probe', 'tmux', d.env);
  const pid = await d.pid();
  const idle = await cpu(pid, windowMs);
  for (let i = 0; i < workers; i++) await d.dispatch(`s${i}`, 'tmux', d.env);
  return { d, pid, idle };
}

try {
  const [k, v] = (process.env.BASELINE ?? 'KH_REPAINT_FILTER=0').split('=');
  const a = await daemon('baseline', { [k!]: v! });
  const b = await daemon('change', {});
  for (const x of [a, b]) for (let i = 0; i < workers; i++) await x.d.rpc('send', { id: `s${i}`, text: 'MODE:hang stream' });
  await sleep(2000);
  const per = { a: [] as number[], b: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    per.a.push((await cpu(a.pid, windowMs) - a.idle) / workers);
    per.b.push((await cpu(b.pid, windowMs) - b.idle) / workers);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log(`${workers} streaming workers, ${rounds} × ${windowMs / 1000} s each, idle subtracted (baseline idle ${a.idle.toFixed(2)} %, change idle ${b.idle.toFixed(2)} %)`);
  console.log(`  baseline (${k}=${v}): ${mean(per.a).toFixed(2)} % of a core per worker  [${per.a.map((x) => x.toFixed(2)).join(', ')}]`);
  console.log(`  change:              ${mean(per.b).toFixed(2)} % of a core per worker  [${per.b.map((x) => x.toFixed(2)).join(', ')}]`);
} finally {
  await runCleanups();
}
