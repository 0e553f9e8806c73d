// Ad-hoc runner while developing: npx tsx bench/lib/try-scale.ts
import { run } from '../fleet-scale.ts';
import { runCleanups } from './cleanup.ts';
try {
  console.log(await run({ levels: [1, 3], probeTrials: 2, cpuWindowMs: 2000, statusTrials: 3, resumeSizes: [6], resumeTrials: 1, parts: { scale: true, cli: true, resume: true }, log: console.log }));
} finally {
  await runCleanups(console.error);
}
