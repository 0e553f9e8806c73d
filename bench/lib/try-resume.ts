// Resume alone at chosen fleet sizes: npx tsx bench/lib/try-resume.ts <workers>[,<workers>…] [trials]
import { run } from '../fleet-scale.ts';
import { runCleanups } from './cleanup.ts';
try {
  const sizes = (process.argv[2] ?? '60').split(',').map(Number);
  const out = await run({ levels: [], probeTrials: 0, cpuWindowMs: 0, statusTrials: 0, resumeSizes: sizes, resumeTrials: Number(process.argv[3] ?? 2), parts: { scale: false, cli: false, resume: true }, log: console.error });
  console.log(JSON.stringify(out, null, 1));
} finally {
  await runCleanups(console.error);
}
