/**
 * `hand`, the binary: runs the program (cli/program.ts) with this process's streams and
 * environment, then exits with its code. Nothing else lives here.
 */
import { processIo } from './io.ts';
import { runCli } from './program.ts';

const code = await runCli(process.argv, processIo);
// process.exit drops what a slow reader has not taken from the stdout pipe yet (a 200 KB
// `--json` list was cut mid-line): wait for it to drain first.
if (process.stdout.writableLength > 0) await new Promise((r) => process.stdout.once('drain', r));
// `daemon run` keeps the process alive through its server; everything else exits now, and so
// does a `daemon run` that failed (with its failure's code: a supervisor must see it failed).
const daemonRun = process.argv[2] === 'daemon' && process.argv[3] === 'run';
if (!daemonRun || code !== 0) process.exit(code);
