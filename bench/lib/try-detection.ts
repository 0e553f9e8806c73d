// Ad-hoc runner while developing: npx tsx bench/lib/try-detection.ts <backend> <trials>
import { measureHost, detectionResults } from '../detection-inprocess.ts';
import { runCleanups } from './cleanup.ts';
import type { BackendName } from '../../io/terminal/types.ts';
try {
  const b = (process.argv[2] ?? 'pty') as BackendName;
  const s = await measureHost(b, { trials: Number(process.argv[3] ?? 3), exitTrials: Number(process.argv[4] ?? 2), log: console.log });
  console.log(detectionResults(b, s));
  console.log('blocked samples', s.blocked.map((x) => x.toFixed(1)).join(' '));
} finally {
  await runCleanups(console.error);
}
