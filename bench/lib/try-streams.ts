// The stream loads alone, with more probes: npx tsx bench/lib/try-streams.ts <levels> [probe trials] [cpu window ms]
import { run } from '../fleet-scale.ts';
import { runCleanups } from './cleanup.ts';
try {
  const levels = (process.argv[2] ?? '20').split(',').map(Number);
  const out = await run({
    levels: [], probeTrials: Number(process.argv[3] ?? 15), cpuWindowMs: Number(process.argv[4] ?? 8_000), statusTrials: 0, resumeSizes: [], resumeTrials: 0,
    streamLevels: levels, parts: { scale: false, cli: false, resume: false, streams: true }, log: console.error,
  });
  for (const r of out) console.log(`${r.name}: p50 ${r.p50} p95 ${r.p95} ${r.unit} (n ${r.n})`);
} finally {
  await runCleanups(console.error);
}
