// `npm test` after the build: the type-check and the suite at once, the type-check niced so it
// takes the cores only when the suite's tests are waiting on their agents (run before the suite it
// delayed the first test: 17 s with TypeScript 5.9, ~4 s with 7). Exits non-zero when either
// fails; the type-check's errors are printed after the suite's report. Arguments go to vitest.
import { spawn } from 'node:child_process';
import { missingPrerequisites } from './test-prerequisites.mjs';
import { inSuiteTmpfs } from './suite-tmpfs.mjs';
import { suiteEnv } from './suite-env.mjs';

const started = Date.now();
// The whole suite needs the machine's tmux, Chromium, bubblewrap, sshd…: said now, not after five
// minutes of failures. A run of named files goes ahead (it may need none of them).
const files = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const missing = missingPrerequisites();
if (missing.length && files.length === 0) {
  process.stderr.write(`${missing.join('\n')}\n`);
  process.exit(1);
}
if (missing.length) process.stderr.write(`${missing.join('\n')}\n(going on: only the named files run)\n`);
// The suite's environment (suite-env.mjs: why NODE_EXTRA_CA_CERTS is left out).
const { env, movedCa } = suiteEnv();
// TypeScript 7 (the compiler in native code): a whole check of the tree takes ~7 CPU-s where 5.9
// took ~23, on a fresh machine where the suite is short of CPU. Incremental: the last check's state
// in node_modules/.cache (it goes with the install), so a run after a small change re-checks what
// it touched (~1 CPU-s).
const tsc = spawn('nice', ['-n', '10', process.execPath, 'node_modules/typescript/bin/tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/kingshand/tsc.tsbuildinfo'], { stdio: ['ignore', 'pipe', 'pipe'], env });
let tscOut = '';
tsc.stdout.on('data', (d) => (tscOut += d));
tsc.stderr.on('data', (d) => (tscOut += d));
const tscDone = new Promise((resolve) => tsc.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
// /tmp in memory for the run where the machine allows it (suite-tmpfs.mjs says why and when).
const run = inSuiteTmpfs([process.execPath, 'node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]);
if (run.inMemory) process.stdout.write('temp files: a tmpfs /tmp of the run\'s own (KH_SUITE_TMP=disk: the machine\'s /tmp)\n');
else if (run.why) process.stdout.write(`temp files: the machine's /tmp (${run.why})\n`);
if (movedCa) process.stdout.write('NODE_EXTRA_CA_CERTS: left out of the suite\'s processes (no test reaches the network; an npm install into the agent cache gets it back; KH_SUITE_CA=keep keeps it)\n');
const vitest = spawn(run.argv[0], run.argv.slice(1), { stdio: 'inherit', env });
const vitestDone = new Promise((resolve) => vitest.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (tsc.kill(sig), vitest.kill(sig)));
const [tscCode, vitestCode] = await Promise.all([tscDone, vitestDone]);
if (tscCode !== 0) process.stderr.write(`\ntype-check failed (tsc --noEmit, exit ${tscCode}):\n${tscOut}`);
else process.stdout.write('type-check passed (tsc --noEmit)\n');
process.stdout.write(`npm test: ${((Date.now() - started) / 1000).toFixed(1)} s after the build (type-check and suite together)\n`);
process.exit(tscCode !== 0 ? tscCode : vitestCode);
