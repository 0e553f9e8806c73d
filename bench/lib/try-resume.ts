// Resume alone at a chosen fleet size: npx tsx bench/lib/try-resume.ts <workers>
import { run } from '../fleet-scale.ts';
import { runCleanups } from './cleanup.ts';
try {
  const out = await run({ levels: [1], probeTrials: 2, cpuWindowMs: 2000, statusTrials: 3, resumeWorkers: Number(process.argv[2] ?? 60), resumeTrials: 2, log: console.error });
  console.log(JSON.stringify(out.at(-1)));
} finally {
  await runCleanups(console.error);
}
