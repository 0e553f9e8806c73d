// Issue 42's figures alone: npx tsx bench/lib/try-phone.ts [trials]
import { loadavg } from 'node:os';
import { run } from '../phone-notify.ts';
import { runCleanups } from './cleanup.ts';
try {
  console.error(`load at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const r = await run({ trials: Number(process.argv[2] ?? 15), log: console.error });
  console.log(JSON.stringify(r, null, 2));
  console.error(`load at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await runCleanups(console.error);
}
