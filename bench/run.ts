/**
 * `npm run bench`: every figure of issue 8 in one run. Writes bench/results/<date>.json and
 * bench/results/latest.json ({machine, results}) and prints a table. Everything the run creates
 * (daemons, tmux servers, herdr double, agents, temp dirs) is undone in the finally block, and
 * on SIGINT/SIGTERM. BENCH_QUICK=1 shrinks every trial count (a smoke run, not figures to keep).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './types.ts';
import { cleanUpWhenCutShort, runCleanups } from './lib/cleanup.ts';
import { run as runInProcess } from './detection-inprocess.ts';
import { run as runCli } from './detection-cli.ts';
import { PartialResults, run as runScale } from './fleet-scale.ts';
import { run as runAnalysis } from './screen-analysis.ts';
import { run as runHand } from './hand-digest.ts';
import { run as runWork } from './work-notify.ts';
import { run as runPhone } from './phone-notify.ts';
import { run as runCodex } from './codex-detection.ts';
import { run as runGemini } from './detection-gemini.ts';
import { run as runOpencode } from './detection-opencode.ts';
import { run as runQwen } from './detection-qwen.ts';
import { run as runFar } from './far-host.ts';
import { run as runRepaints } from './repaints.ts';
import { run as runWitness } from './settled-witness.ts';
import { formatTable } from './lib/table.ts';
import { round } from './lib/stats.ts';

const quick = process.env.BENCH_QUICK === '1';
/** BENCH_ONLY=analysis,detection,codex,agents,wait,repaints,scale,streams,cli,resume,hand,work,phone,far runs a subset (its results do not replace latest.json). */
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const wanted = (s: string) => only === null || only.has(s);
/** A comma list of positive sizes from the environment, or null when unset. */
function sizesFromEnv(name: string): number[] | null {
  const raw = process.env[name];
  if (!raw) return null;
  const sizes = raw.split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`${name}=${raw}: expected a comma list of positive whole numbers, e.g. ${name}=1,10,50`);
  return sizes;
}
const log = (m: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

const machine = {
  cores: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverageAtStart: loadavg().map((x) => round(x, 2)),
  loadAverageAtEnd: [] as number[],
  startedAt: new Date().toISOString(),
  durationS: 0,
  quick,
};

cleanUpWhenCutShort(log);

// A bounded wait that lost its race must not take the run down before results are written.
process.on('unhandledRejection', (err) => log(`unhandled rejection: ${String(err)}`));

const results: BenchResult[] = [];
let complete = false;
const failures: string[] = [];
const t0 = Date.now();
try {
  log(`machine: ${machine.cores} cores, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`);
  const analysis = wanted('analysis') ? await runAnalysis() : [];
  results.push(...analysis);
  log('screen analysis done');
  const section = async (what: string, fn: () => Promise<BenchResult[]>) => {
    try {
      results.push(...(await fn()));
    } catch (err) {
      if (err instanceof PartialResults) results.push(...err.partial);
      // One broken figure must not hide the others: it is named in the output instead.
      failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      log(`FAILED ${failures.at(-1)}`);
    } finally {
      await runCleanups(log);
    }
  };
  let blockedP50: Partial<Record<'pty' | 'tmux' | 'herdr', number>> = {};
  if (wanted('detection')) await section('in-process detection', async () => {
    const r = await runInProcess({ trials: quick ? 3 : 30, exitTrials: quick ? 2 : 15, log });
    blockedP50 = r.blockedP50;
    return r.results;
  });
  // Issue 39: settled with the agent's Stop hook as witness beside the quiet window, one daemon, one run.
  if (wanted('detection')) await section('settled with the witness beside the quiet window (issue 39)', () => runWitness({ trials: quick ? 3 : 20, log }));
  // Blocked detection per agent on tmux (issue 27): the real Codex CLI beside the mock's figures.
  if (wanted('codex')) await section('Codex CLI detection', () => runCodex({ trials: quick ? 3 : 10, log }));
  // The real Gemini CLI on tmux (issue 27).
  if (wanted('agents')) await section('blocked detection per agent CLI (Gemini CLI on tmux)', () => runGemini({ trials: quick ? 2 : 10, log }));
  if (wanted('agents')) await section('blocked detection per agent CLI (OpenCode on tmux)', () => runOpencode({ trials: quick ? 2 : 10, log }));
  if (wanted('agents')) await section('blocked detection per agent CLI (Qwen Code on tmux)', () => runQwen({ trials: quick ? 2 : 10, log }));
  if (wanted('wait')) await section('hand wait detection', () => runCli({ trials: quick ? 2 : 15, log }));
  if (wanted('hand')) await section('the Hand: digest size, MCP wait', () => runHand({ trials: quick ? 3 : 15, log }));
  if (wanted('work')) await section('notifications and backlog (issue 13)', () => runWork({ trials: quick ? 3 : 15, readyTrials: quick ? 3 : 15, items: 1000, log }));
  if (wanted('phone')) await section('answers from the phone (issue 42)', () => runPhone({ trials: quick ? 3 : 15, log }));
  // Issue 28: far workers over ssh (a real sshd on loopback) against local ones, in one daemon.
  if (wanted('far')) await section('far host over ssh (issue 28)', () => runFar({ trials: quick ? 3 : 15, streaming: quick ? 2 : 5, cpuWindowMs: quick ? 2_000 : 8_000, log }));
  // Issue 26: per streaming worker, every burst read (the old way) beside known repaints unread.
  if (wanted('repaints')) await section('repaints read or not (issue 26)', () => runRepaints({ levels: quick ? [1] : [1, 10], windowMs: quick ? 2_000 : 8_000, rounds: quick ? 1 : 3, log }));
  const parts = { scale: wanted('scale'), cli: wanted('cli'), resume: wanted('resume'), streams: wanted('streams') };
  if (parts.scale || parts.cli || parts.resume || parts.streams) await section(`${Object.keys(parts).filter((k) => parts[k as keyof typeof parts]).join(', ')} (one daemon)`, () =>
    runScale({
      // BENCH_LEVELS / BENCH_RESUME_SIZES (comma lists) choose other sizes, e.g. 200 streaming or 500 idle.
      levels: sizesFromEnv('BENCH_LEVELS') ?? (quick ? [1, 3] : [1, 10, 50, 200]),
      probeTrials: quick ? 2 : 15,
      cpuWindowMs: quick ? 2_000 : 8_000,
      statusTrials: quick ? 3 : 15,
      resumeSizes: sizesFromEnv('BENCH_RESUME_SIZES') ?? (quick ? [6] : [50, 100, 500]),
      resumeTrials: quick ? 1 : 3,
      // Issue 46: blocked at these levels again as before the read lanes, same fleet (BENCH_READ_BASELINE=200,…).
      readBaselineLevels: sizesFromEnv('BENCH_READ_BASELINE') ?? (quick ? [] : [200]),
      // Issue 46: the spinner load beside Claude Code's real byte rate at these levels (BENCH_STREAM_LEVELS=1,20,200).
      streamLevels: sizesFromEnv('BENCH_STREAM_LEVELS') ?? (quick ? [1] : [1, 20]),
      parts,
      log,
    }),
  );
  // 6. How close detection is to the physical limit: detection p50 / one parse+analyse.
  const perReading = analysis.find((r) => r.name.startsWith('screen-analysis ansi 120x40 (working') && r.unit === 'µs');
  if (perReading) {
    for (const b of ['pty', 'tmux', 'herdr'] as const) {
      const p50 = blockedP50[b];
      if (p50 === undefined) continue;
      results.push({
        name: `detection / analysis ratio, ${b}: blocked p50 ÷ one ansi 120x40 reading`,
        unit: '×',
        n: 1,
        p50: round((p50 * 1000) / perReading.p50, 0),
        p95: round((p50 * 1000) / perReading.p95, 0),
        target: null,
        note: `${p50} ms vs ${perReading.p50} µs (p95 column uses the p95 reading time)`,
      });
    }
  }
  complete = failures.length === 0;
} finally {
  await runCleanups(log);
  machine.loadAverageAtEnd = loadavg().map((x) => round(x, 2));
  machine.durationS = Math.round((Date.now() - t0) / 1000);
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const doc = JSON.stringify({ machine: { ...machine, complete, failures, only: only ? [...only] : null }, results }, null, 2) + '\n';
  const stamp = machine.startedAt.replace(/[:.]/g, '-');
  writeFileSync(`${dir}${stamp}.json`, doc);
  if (!quick && only === null && results.length > 0) writeFileSync(`${dir}latest.json`, doc);
  console.log(formatTable(results));
  for (const f of failures) console.log(`FAILED: ${f}`);
  console.log(`\nmachine: ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')} → ${machine.loadAverageAtEnd.join(' ')}, ${machine.durationS} s`);
}
