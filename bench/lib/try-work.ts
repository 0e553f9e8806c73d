// Issue 13's figures alone: npx tsx bench/lib/try-work.ts [trials] [readyTrials] [items]
import { loadavg } from 'node:os';
import { run } from '../work-notify.ts';
import { runCleanups } from './cleanup.ts';
try {
  console.error(`load at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const r = await run({ trials: Number(process.argv[2] ?? 10), readyTrials: Number(process.argv[3] ?? 10), items: Number(process.argv[4] ?? 1000), log: console.error });
  console.log(JSON.stringify(r, null, 2));
  console.error(`load at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await runCleanups(console.error);
}
