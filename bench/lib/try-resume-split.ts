// Ad-hoc (issue 46): resume of N idle tmux workers, with where the daemon says its time went
// (its "fleet restored" log line: process uptime, store, actors, re-attach) beside the bench's figure.
// npx tsx bench/lib/try-resume-split.ts [workers=500] [trials=3]
import { readFileSync } from 'node:fs';
import { makeWorld } from './world.ts';
import { makeDaemonWorld } from './daemon.ts';
import { runCleanups } from './cleanup.ts';
import { growTo, measureResume } from '../resume.ts';
const n = Number(process.argv[2] ?? 500);
const trials = Number(process.argv[3] ?? 3);
try {
  const world = makeWorld('resume-split');
  const d = await makeDaemonWorld(world);
  await growTo(d, n, () => world.workerEnv(), console.error);
  for (let round = 0; round < Number(process.env.TRY_ROUNDS ?? 1); round++) {
    const samples = await measureResume(d, n, trials);
    console.log(`resume ${n}: ${samples.map((s) => s.toFixed(0)).join(' ')} ms`);
  }
  const lines = readFileSync(d.paths.log, 'utf8').split('\n').filter((l) => l.includes('fleet restored'));
  for (const l of lines.slice(-trials * Number(process.env.TRY_ROUNDS ?? 1))) {
    const o = JSON.parse(l) as Record<string, unknown>;
    console.log(`uptime ${o.uptimeMs} since createDaemon ${o.sinceStartMs} load ${o.loadMs} actors ${o.actorsMs} reattach ${o.reattachMs}`);
  }
  if (process.env.TRY_HOLD) await new Promise((r) => setTimeout(r, Number(process.env.TRY_HOLD)));
} finally {
  await runCleanups(console.error);
}
