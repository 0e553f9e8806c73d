/**
 * Issue 13's figures. (1) blocked drawn → notification received: the mock agent logs the moment
 * it draws a menu (its own clock), a webhook target on 127.0.0.1 stamps the moment the
 * notification arrives; the figure is the daemon's whole path (screen read → view → label →
 * queue in SQLite → HTTP POST). (2) `hand backlog ready` with 1,000 items (a third of them
 * blocked, some held), timed from process spawn to exit, as a person or a script runs it.
 */
import { startLoopbackSink } from './lib/loopback-sink.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeDaemonWorld } from './lib/daemon.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, percentile, single, summarise } from './lib/stats.ts';
import { ensureBundle } from './lib/bundle.ts';
import { runProcess } from './lib/daemon.ts';

export async function run(opts: { trials: number; readyTrials: number; items: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const world = makeWorld('work');
  const arrivals: { t: number; body: { worker: string; condition: string } }[] = [];
  const port = await startLoopbackSink('webhook server', (body) => arrivals.push({ t: nowMs(), body: JSON.parse(body) }), 'ok');
  const d = await makeDaemonWorld(world);
  await d.rpc('notify.add', { kind: 'webhook', args: [`http://127.0.0.1:${port}/hook`], allowLoopback: true });

  const id = 'notify-tmux';
  const log = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: log }));
  const samples: number[] = [];
  for (let i = 0; i < opts.trials; i++) {
    const sentAt = nowMs();
    const seen = arrivals.length;
    await d.rpc('send', { id, text: `MODE:ask notify question ${i}` });
    const menu = await awaitEvent(log, 'menu-drawn', sentAt);
    const start = Date.now();
    while (!arrivals.slice(seen).some((a) => a.body.worker === id && a.body.condition === 'blocked')) {
      if (Date.now() - start > 20_000) throw new Error(`no blocked notification for ${id} within 20 s (trial ${i})`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const hit = arrivals.slice(seen).find((a) => a.body.condition === 'blocked')!;
    samples.push(hit.t - menu.t);
    await d.rpc('keys', { id, key: 'enter' });
    const settled = await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
    if (settled.reason !== 'settled') throw new Error(`worker ${id} did not settle after the answer: ${JSON.stringify(settled)}`);
  }
  opts.log?.(`notification: ${opts.trials} trials done`);

  for (let i = 0; i < opts.items; i++) {
    await d.rpc('backlog.add', { id: `item-${i}`, project: 'bench', title: `Backlog item number ${i}` });
    if (i % 3 === 2) await d.rpc('backlog.block', { id: `item-${i}`, by: `item-${i - 1}` });
    if (i % 10 === 5) await d.rpc('backlog.hold', { id: `item-${i}`, reason: 'waits on a vendor', kind: 'external' });
  }
  // The floor under the figure on this machine: the same process start and daemon round trip with nothing to list.
  const floor: number[] = [];
  for (let i = 0; i < opts.readyTrials; i++) {
    const r = await d.hand(['daemon', 'status', '--json']);
    floor.push(r.endedAt - r.startedAt);
  }
  // Node's own start, each trial just before the figure's, so a ratio compares like with like
  // (issue 26's target is a ratio; a machine that slows during the run slows both).
  ensureBundle(opts.log);
  const bare: number[] = [];
  const ready: number[] = [];
  let count = 0;
  for (let i = 0; i < opts.readyTrials; i++) {
    const b = await runProcess([process.execPath, '-e', ''], d.env);
    bare.push(b.endedAt - b.startedAt);
    const r = await d.hand(['backlog', 'ready', '--json']);
    if (r.code !== 0 || !Array.isArray(r.json)) throw new Error(`hand backlog ready failed (${r.code}): ${r.stderr} · stdout ${r.stdout.length} chars: ${r.stdout.slice(0, 200)} … ${r.stdout.slice(-200)}`);
    count = (r.json as unknown[]).length;
    ready.push(r.endedAt - r.startedAt);
  }
  const p50 = (xs: number[]) => percentile(xs, 50);
  const inDaemon: number[] = [];
  for (let i = 0; i < opts.readyTrials; i++) {
    const t0 = nowMs();
    await d.rpc('backlog.ready');
    inDaemon.push(nowMs() - t0);
  }
  opts.log?.(`backlog ready: ${opts.readyTrials} trials done (${count} ready of ${opts.items})`);
  return [
    summarise('blocked drawn (mock menu) → webhook notification received, tmux', 'ms', samples, 200, 'webhook on 127.0.0.1; includes the screen read, label, SQLite queue and POST'),
    summarise(`\`hand backlog ready --json\` with ${opts.items} items (process spawn → exit)`, 'ms', ready, 150, `${count} ready; a third blocked, a tenth held`),
    summarise('`node -e \'\'` beside each of those (process spawn → exit)', 'ms', bare, null, 'Node itself'),
    single(`CLI start-up ratio: \`hand backlog ready --json\` (${opts.items} items) ÷ \`node -e ''\` (p50s)`, '×', p50(ready) / p50(bare), 1.6, `${p50(ready).toFixed(1)} ms vs ${p50(bare).toFixed(1)} ms`, 2),
    summarise('`hand daemon status --json` (process spawn → exit): the CLI floor on this machine', 'ms', floor, null),
    summarise(`backlog.ready request over the socket with ${opts.items} items (no process start)`, 'ms', inDaemon, null),
  ];
}
