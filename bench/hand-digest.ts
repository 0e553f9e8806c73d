/**
 * The Hand's figures (issue 12): the session-start digest's size with 20 workers (estimated
 * tokens = characters / 4; the bound is 1,500), and the MCP `wait` tool's latency from the mock
 * agent drawing a menu to the tool result reaching the MCP client, next to `hand wait`'s (the
 * same measurement through the CLI, bench/detection-cli.ts). `BENCH_ONLY=hand`.
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
import { run as runCliWait } from './detection-cli.ts';

const WORKERS = 20;
const ASKING = 5;
const REPLY_MS = 1000;

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

  // MCP wait: the tool call is in flight before the menu is drawn (the worker replies after REPLY_MS).
  const id = 'mcp-wait';
  const log = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: log, KH_MOCK_REPLY_MS: String(REPLY_MS) }));
  const client = new Client({ name: 'kh-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HAND_BIN, '--home', d.home, 'mcp', '--workspace', ws], env: d.env, stderr: 'ignore' }));
  onCleanup('bench MCP client', () => client.close());
  const samples: number[] = [];
  let late = 0;
  for (let i = 0; i < opts.trials; i++) {
    const sentAt = nowMs();
    const working = d.watchUntil(id, 'working', (r) => r.stage === 'running.working');
    await working.ready;
    await d.rpc('send', { id, text: `MODE:ask mcp question ${i}` });
    await working.done;
    const called = nowMs();
    const res = (await client.callTool({ name: 'wait', arguments: { id, until: 'blocked', timeout: '30s' } }, undefined, { timeout: 60_000 })) as { isError?: boolean; content: { text: string }[] };
    const answeredAt = nowMs();
    if (res.isError) throw new Error(`MCP wait failed: ${res.content[0]?.text}`);
    const menu = await awaitEvent(log, 'menu-drawn', sentAt);
    if (called > menu.t) late++;
    else samples.push(answeredAt - menu.t);
    await d.rpc('keys', { id, key: 'enter' });
    await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
  }
  results.push(summarise('blocked detection, tmux: menu drawn → MCP `wait` tool result at the client', 'ms', samples, 300, `includes the blocked result's screen read for the question; ${late} of ${opts.trials} trials discarded (call made after the menu)`));
  opts.log?.('MCP wait trials done');
  results.push(...(await runCliWait({ trials: opts.trials, log: opts.log }, ['tmux'])));
  return results;
}
