// Ad-hoc runner while developing: npx tsx bench/lib/try-cli.ts <backend> <trials>
import { run } from '../detection-cli.ts';
import { runCleanups } from './cleanup.ts';
import type { BackendName } from '../../io/terminal/types.ts';
try {
  console.log(await run({ trials: Number(process.argv[3] ?? 3), log: console.log }, [(process.argv[2] ?? 'pty') as BackendName]));
} finally {
  await runCleanups(console.error);
}
