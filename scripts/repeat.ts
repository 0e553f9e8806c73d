/**
 * `npm run repeat -- [--times 20] [--demo] [--fault]`: runs the demo (`hand demo`) and/or the
 * fault recipe (the tmux-server-kill file of the generated fault suite) N times in a row and
 * stops at the first failure, printing each run's outcome and time and the tally. Issue 21 asks
 * for both green twenty times in a row; this is the command that shows it.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { times: { type: 'string', default: '20' }, demo: { type: 'boolean', default: false }, fault: { type: 'boolean', default: false } } });
const times = Number(values.times);
if (!Number.isInteger(times) || times < 1) throw new Error(`--times must be a whole number of at least 1 (got ${values.times})`);
const both = !values.demo && !values.fault;

const RECIPES: Array<{ name: string; argv: string[] }> = [
  ...(values.demo || both ? [{ name: 'demo', argv: [join(ROOT, 'bin', 'hand.js'), 'demo'] }] : []),
  ...(values.fault || both ? [{ name: 'fault recipe', argv: [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'tests/faults/tmux-server-killed-at-every-worker-state.test.ts'] }] : []),
];

for (const recipe of RECIPES) {
  let green = 0;
  for (let i = 1; i <= times; i++) {
    const t0 = Date.now();
    try {
      execFileSync(process.execPath, recipe.argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
      green++;
      console.log(`${recipe.name} run ${i}/${times}: green in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      const e = err as { status?: number; stdout?: Buffer; stderr?: Buffer };
      console.log(`${recipe.name} run ${i}/${times}: FAILED (exit ${e.status ?? '?'}) after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      console.log(`${e.stdout?.toString('utf8').slice(-4000) ?? ''}${e.stderr?.toString('utf8').slice(-4000) ?? ''}`);
      break;
    }
  }
  console.log(`${recipe.name}: ${green} green in a row of ${times}`);
  if (green < times) process.exitCode = 1;
}
