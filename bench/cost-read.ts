/**
 * Issue 41's figure: the cost read for 200 workers against the daemon's CPU at 200 streaming.
 *
 *  baseline — a real daemon (tmux) with 200 mock workers streaming (MODE:hang, a 100 ms tick):
 *    its CPU, % of one core, over a window (/proc/<pid>/stat deltas);
 *  cost read — in the same run, with the 200 still streaming (the machine as loaded), the session
 *    keeper's own code (daemon/sessions/session-keeper.ts) on 200 Claude Code transcripts of 256 KB
 *    in 200 workers' own config directories, a child process appending a 4 KB reply to each every
 *    2 s (a busy agent's transcript grows about so): the CPU of each read (proof once, then the
 *    incremental tally and the ledger's write), and the share of a core at two rates —
 *      modelled: the 60 s sweep plus one turn edge a worker a minute (a streaming worker has no
 *        edge while it streams: this over-counts),
 *      worst: every worker read every 2 s.
 *    The overhead is that share over the baseline's.
 *
 * Not part of `npm run bench` (it runs 200 agents): `nice -n 10 npx tsx bench/cost-read.ts`.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWorld } from './lib/world.ts';
import { cpuShare, makeDaemonWorld } from './lib/daemon.ts';
import { pool } from './lib/pool.ts';
import { onCleanup, runCleanups } from './lib/cleanup.ts';
import { createSessionKeeper } from '../daemon/sessions/session-keeper.ts';
import { openStore } from '../persistence/sqlite-store.ts';
import { openWorkStores } from '../persistence/work/index.ts';
import { claudeProjectSlug } from '../io/agent/sessions/claude.ts';
import type { WorkerIntent } from '../persistence/types.ts';

const N = Number(process.env.COST_WORKERS ?? 200);
const WINDOW_MS = Number(process.env.COST_WINDOW_MS ?? 10_000);
const APPEND_EVERY_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (m: string) => console.error(`[cost-read ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** One Claude Code reply as 2.1.332 writes it (two content blocks, one usage), padded to about `bytes`. */
function reply(sessionId: string, cwd: string, n: number, bytes: number): string {
  const usage = { input_tokens: 40 + n, output_tokens: 12, cache_read_input_tokens: 3000 + n, cache_creation_input_tokens: 5 };
  const pad = 'x'.repeat(Math.max(0, Math.floor(bytes / 2) - 400));
  const line = (k: number) => JSON.stringify({ parentUuid: null, type: 'assistant', message: { id: `msg_${n}`, model: 'claude-opus-5-5', usage, content: [{ type: 'text', text: `${k}${pad}` }] }, timestamp: new Date().toISOString(), cwd, sessionId });
  return `${line(0)}\n${line(1)}\n`;
}

// The appender, as a child process: the bench process measures the reader alone.
if (process.argv[2] === 'append') {
  const files = JSON.parse(process.argv[3]!) as { file: string; sessionId: string; cwd: string }[];
  const { appendFileSync } = await import('node:fs');
  let n = 1000;
  setInterval(() => {
    n++;
    for (const f of files) appendFileSync(f.file, reply(f.sessionId, f.cwd, n, 4096));
  }, APPEND_EVERY_MS);
} else {
  try {
    const world = makeWorld('cost-read');
    const d = await makeDaemonWorld(world);
    const ids = Array.from({ length: N }, (_, k) => `s${k}`);
    log(`dispatching ${N} mock workers`);
    await pool(ids, 4, (id) => d.dispatch(id, 'tmux', d.env));
    for (const id of ids) await d.rpc('send', { id, text: 'MODE:hang stream' });
    await sleep(3000);
    const pid = await d.pid();
    log('measuring the daemon at 200 streaming (baseline)');
    const baselinePct = await cpuShare(pid, WINDOW_MS);

    // The keeper on 200 workers' transcripts, in its own state directory.
    const state = join(world.root, 'keeper-state');
    mkdirSync(state, { recursive: true });
    const db = join(state, 'fleet.db');
    const fleetStore = openStore(db);
    const stores = openWorkStores(db);
    onCleanup('keeper stores', () => {
      stores.close();
      fleetStore.close();
    });
    // The keeper asks the real store for each worker, as in the daemon.
    fleetStore.upsertProject({ name: 'bench', repo: world.repo, posture: 'local-only', yolo: true, registeredAt: Date.now() });
    const intents = new Map<string, WorkerIntent>();
    const files: { file: string; sessionId: string; cwd: string }[] = [];
    const launched = Date.now() - 60_000;
    for (const [k, id] of ids.entries()) {
      const cwd = join(world.root, 'wt', id);
      const sessionId = `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
      const dir = join(state, 'agents', id, 'claude', 'projects', claudeProjectSlug(cwd));
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${sessionId}.jsonl`);
      let text = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'Read the brief' }, timestamp: new Date().toISOString(), cwd, sessionId })}\n`;
      for (let n = 0; text.length < 256 * 1024; n++) text += reply(sessionId, cwd, n, 4096);
      writeFileSync(file, text);
      files.push({ file, sessionId, cwd });
      intents.set(id, { id, project: 'bench', repo: world.repo, worktree: cwd, branch: id, base: 'main', backend: 'tmux', agent: 'claude', briefPath: '', reportPath: '', createdAt: launched });
      fleetStore.insertWorker(intents.get(id)!);
    }
    const views = ids.map((id) => ({ id, condition: 'busy', marks: ['working'] }));
    const keeper = createSessionKeeper({
      store: fleetStore,
      fleet: { views: () => views as never, view: (id: string) => (views.find((v) => v.id === id) ?? null) as never, subscribe: () => () => {} },
      sessions: stores.sessions,
      stateDir: state,
      launchEnvOf: () => ({}),
      sweepMs: 0,
    });
    onCleanup('keeper', () => keeper.close());
    log('first read of every transcript (proof, then the whole file)');
    const firstCpu = process.cpuUsage();
    for (const id of ids) await keeper.refresh(id);
    const first = process.cpuUsage(firstCpu);
    const appender = fork(fileURLToPath(import.meta.url), ['append', JSON.stringify(files)], { stdio: 'ignore', execArgv: ['--import', 'tsx'] });
    onCleanup('appender', () => appender.kill('SIGKILL'));
    await sleep(APPEND_EVERY_MS + 200);

    // Steady state: every worker read after each append, for the window.
    log('reading every worker after each append, for the window');
    let reads = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    while (performance.now() - t0 < WINDOW_MS) {
      const round = performance.now();
      for (const id of ids) await keeper.refresh(id);
      reads += ids.length;
      await sleep(Math.max(0, APPEND_EVERY_MS - (performance.now() - round)));
    }
    const used = process.cpuUsage(cpu0);
    const cpuMsPerRead = (used.user + used.system) / 1000 / reads;
    const modelledReadsPerS = (2 * N) / 60;
    const worstReadsPerS = N / (APPEND_EVERY_MS / 1000);
    const modelledPct = (cpuMsPerRead * modelledReadsPerS) / 10;
    const worstPct = (cpuMsPerRead * worstReadsPerS) / 10;
    const rows = [
      ['daemon CPU, 200 mock workers streaming (baseline)', `${baselinePct.toFixed(2)} % of a core`],
      ['first read of 200 transcripts of 256 KB (proof + whole file)', `${((first.user + first.system) / 1000).toFixed(0)} ms of CPU in all`],
      ['CPU per read (4 KB appended since the last)', `${(cpuMsPerRead * 1000).toFixed(0)} µs (${reads} reads)`],
      [`modelled: ${modelledReadsPerS.toFixed(1)} reads/s (sweep + one edge a worker a minute)`, `${modelledPct.toFixed(3)} % of a core = ${((modelledPct / baselinePct) * 100).toFixed(2)} % of the baseline`],
      [`worst: ${worstReadsPerS.toFixed(0)} reads/s (every worker every 2 s)`, `${worstPct.toFixed(3)} % of a core = ${((worstPct / baselinePct) * 100).toFixed(2)} % of the baseline`],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(78)} ${v}`);
  } finally {
    await runCleanups(log);
  }
}
