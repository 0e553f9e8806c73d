/**
 * The Hand's figures (issue 12): the session-start digest's size with 20 workers (estimated
 * tokens = characters / 4; the bound is 1,500), and the MCP `wait` tool's latency from the mock
 * agent drawing a menu to the tool result reaching the MCP client, next to `hand wait`'s (the
 * same measurement through the CLI, as bench/detection-cli.ts takes it). `BENCH_ONLY=hand`.
 */
import { join } from 'node:path';
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

const WORKERS = 20;
const ASKING = 5;
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
  opts.log?.(`${WORKERS} workers up, ${ASKING} blocked on a question`);

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
  const results = [summarise(`hand digest size, ${WORKERS} workers (${ASKING} blocked)`, 'est. tokens', sizes, 1500, 'characters / 4 of the text the SessionStart hook hands the session')];

  // MCP wait and `hand wait` on one worker, trials alternating: each call is in flight before the
  // menu is drawn (the worker replies REPLY_MS after the prompt, room for a CLI start on a loaded machine).
  const id = 'hand-wait';
  const log = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: log, KH_MOCK_REPLY_MS: String(REPLY_MS) }));
  const client = new Client({ name: 'kh-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HAND_BIN, '--home', d.home, 'mcp', '--workspace', ws], env: d.env, stderr: 'ignore' }));
  onCleanup('bench MCP client', () => client.close());
  const samples = { mcp: [] as number[], cli: [] as number[] };
  const late = { mcp: 0, cli: 0 };
  for (let i = 0; i < opts.trials * 2; i++) {
    const via = i % 2 === 0 ? 'mcp' : 'cli';
    const sentAt = nowMs();
    const working = d.watchUntil(id, 'working', (r) => r.condition === 'busy' && r.state === 'working');
    await working.ready;
    await d.rpc('send', { id, text: `MODE:ask ${via} question ${i}` });
    await working.done;
    let began: number;
    let answeredAt: number;
    if (via === 'mcp') {
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
  const note = (via: 'mcp' | 'cli') => `same worker, trials alternating; the blocked answer includes a screen read for the question; ${late[via]} of ${opts.trials} trials discarded (call began after the menu)`;
  results.push(summarise('blocked detection, tmux: menu drawn → MCP `wait` tool result at the client', 'ms', samples.mcp, 300, note('mcp')));
  results.push(summarise('blocked detection, tmux: menu drawn → `hand wait --until blocked` exits', 'ms', samples.cli, 300, note('cli')));
  opts.log?.('MCP and CLI wait trials done');
  return results;
}
