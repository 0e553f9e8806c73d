/**
 * The Hand's figures (issues 12 and 22): the session-start digest's size with 20 workers and 50
 * backlog items (estimated tokens = characters / 4; the bound is 1,500), and the latency from the
 * mock agent drawing a menu to the Hand hearing of it three ways: the MCP `wait` tool's result at
 * the client, `hand wait` exiting (as bench/detection-cli.ts takes it), and the line of a running
 * `hand watch --needs-you` (the Hand's Monitor) reaching its reader. `BENCH_ONLY=hand`;
 * HAND_BENCH_WORKERS shrinks the fleet for a brief run (the digest figure is then not the bound's).
 */
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeDaemonWorld, HAND_BIN } from './lib/daemon.ts';
import { onCleanup } from './lib/cleanup.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';
import { initWorkspace } from '../io/workspace/init.ts';
import { workspacePaths } from '../io/workspace/layout.ts';

const WORKERS = Number(process.env.HAND_BENCH_WORKERS ?? 20);
const ASKING = Math.min(5, WORKERS);
const ITEMS = 50;
const REPLY_MS = 2500;

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const world = makeWorld('hand');
  const d = await makeDaemonWorld(world);
  const ids = Array.from({ length: WORKERS }, (_, i) => `worker-${String(i + 1).padStart(2, '0')}`);
  for (const id of ids) await d.dispatch(id, 'tmux', world.workerEnv());
  // A fifth of them ask a question: their lines (quoting it) are the digest's longest.
  for (const id of ids.slice(0, ASKING)) {
    await d.rpc('send', { id, text: 'MODE:ask which database?' });
    await d.rpc('wait', { id, until: 'blocked', timeoutMs: 30_000 });
  }
  // The queue a session start counts (its held-for-the-person items are listed, the rest counted).
  for (let i = 0; i < ITEMS; i++) {
    await d.rpc('backlog.add', { id: `item-${i}`, project: 'bench', title: `A queued task of typical length, number ${i}` });
    if (i % 10 === 0) await d.rpc('backlog.hold', { id: `item-${i}`, reason: 'needs your call on the scope', kind: 'person' });
  }
  opts.log?.(`${WORKERS} workers up, ${ASKING} blocked on a question, ${ITEMS} backlog items`);

  const ws = join(world.root, 'ws');
  initWorkspace({ dir: ws, home: d.home, stateDir: d.home, node: process.execPath, handBin: HAND_BIN, version: 'bench' });
  const p = workspacePaths(ws);
  writeFileSync(p.learnings, `${'- 2026-11-30 a learned fact of typical length, with its source (source: a report)\n'.repeat(40)}`);
  const sizes: number[] = [];
  for (let i = 0; i < Math.max(3, opts.trials); i++) {
    const r = await d.hand(['digest', '--workspace', ws]);
    if (r.code !== 0) throw new Error(`hand digest failed (${r.code}): ${r.stderr}`);
    sizes.push(Math.ceil(r.stdout.length / 4));
  }
  const results = [summarise(`hand digest size, ${WORKERS} workers (${ASKING} blocked), ${ITEMS} items`, 'est. tokens', sizes, 1500, 'characters / 4 of the text the SessionStart hook hands the session')];

  // MCP wait and `hand wait` on one worker, trials alternating: each call is in flight before the
  // menu is drawn (the worker replies REPLY_MS after the prompt, room for a CLI start on a loaded machine).
  const id = 'hand-wait';
  const log = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: log, KH_MOCK_REPLY_MS: String(REPLY_MS) }));
  const client = new Client({ name: 'kh-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HAND_BIN, '--home', d.home, 'mcp', '--workspace', ws], env: d.env, stderr: 'ignore' }));
  onCleanup('bench MCP client', () => client.close());
  // The Hand's wake, running for the whole run as the Monitor runs it: each line is stamped as it is read.
  const watch = spawn(process.execPath, [HAND_BIN, '--home', d.home, 'watch', '--needs-you', '--json', '--timeout', '30m'], { env: d.env, stdio: ['ignore', 'pipe', 'ignore'] });
  onCleanup('bench hand watch', () => watch.kill());
  const lines: { worker: string; need: string; at: number }[] = [];
  createInterface({ input: watch.stdout! }).on('line', (l) => {
    const at = nowMs();
    try {
      const e = JSON.parse(l) as { worker: string; need: string };
      lines.push({ worker: e.worker, need: e.need, at });
    } catch {
      // not a line of the stream (none expected): ignored
    }
  });
  const watchLine = async (after: number): Promise<number> => {
    for (const start = nowMs(); nowMs() - start < 30_000; await new Promise((r) => setTimeout(r, 5))) {
      const hit = lines.find((x) => x.worker === id && x.need === 'blocked' && x.at >= after);
      if (hit) return hit.at;
    }
    throw new Error(`hand watch --needs-you printed no blocked line for ${id} within 30 s`);
  };
  const samples = { mcp: [] as number[], cli: [] as number[], watch: [] as number[] };
  const late = { mcp: 0, cli: 0, watch: 0 };
  const VIAS = ['mcp', 'cli', 'watch'] as const;
  for (let i = 0; i < opts.trials * 3; i++) {
    const via = VIAS[i % 3]!;
    const sentAt = nowMs();
    const working = d.watchUntil(id, 'working', (r) => r.condition === 'busy' && r.state === 'working');
    await working.ready;
    await d.rpc('send', { id, text: `MODE:ask ${via} question ${i}` });
    await working.done;
    let began: number;
    let answeredAt: number;
    if (via === 'watch') {
      // The watch was listening long before the send: its delay is the daemon's, not a start's.
      began = sentAt;
      answeredAt = await watchLine(sentAt);
    } else if (via === 'mcp') {
      began = nowMs();
      const res = (await client.callTool({ name: 'wait', arguments: { id, until: 'blocked', timeout: '30s' } }, undefined, { timeout: 60_000 })) as { isError?: boolean; content: { text: string }[] };
      answeredAt = nowMs();
      if (res.isError) throw new Error(`MCP wait failed: ${res.content[0]?.text}`);
    } else {
      const wait = await d.hand(['wait', id, '--until', 'blocked', '--timeout', '30s', '--json']);
      if (wait.code !== 0) throw new Error(`hand wait failed (${wait.code}): ${wait.stdout}${wait.stderr}`);
      // waitedMs is the daemon's own count from the wait request to the answer
      began = wait.endedAt - Number(wait.json?.waitedMs ?? 0);
      answeredAt = wait.endedAt;
    }
    const menu = await awaitEvent(log, 'menu-drawn', sentAt);
    if (began > menu.t) late[via]++;
    else samples[via].push(answeredAt - menu.t);
    await d.rpc('keys', { id, key: 'enter' });
    await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
  }
  const note = (via: 'mcp' | 'cli' | 'watch') => `same worker, trials alternating; the blocked answer includes a screen read for the question; ${late[via]} of ${opts.trials} trials discarded (call began after the menu)`;
  results.push(summarise('blocked detection, tmux: menu drawn → MCP `wait` tool result at the client', 'ms', samples.mcp, 300, note('mcp')));
  results.push(summarise('blocked detection, tmux: menu drawn → `hand wait --until blocked` exits', 'ms', samples.cli, 300, note('cli')));
  results.push(summarise('blocked detection, tmux: menu drawn → `hand watch --needs-you` line read (the Monitor)', 'ms', samples.watch, 300, note('watch')));
  opts.log?.('MCP wait, CLI wait and watch trials done');
  return results;
}
