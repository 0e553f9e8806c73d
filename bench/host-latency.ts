/**
 * Host-level latency, per host (pty, tmux): from the mock agent drawing a menu (its event log,
 * KH_MOCK_EVENT_LOG, stamped just before the frame is written) to
 *   1. the host's first `changed` event at or after that moment, and
 *   2. the first screen reading (readVisible + analyseScreen, re-read on every `changed`) that
 *      says blocked.
 * No fleet, no actor: this is what a TerminalHost alone costs. Targets p95 ≤ 100 ms (pty),
 * ≤ 250 ms (tmux). Standalone: `npx tsx bench/host-latency.ts` (BENCH_QUICK=1: 3 trials).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPtyHost } from '../io/terminal/pty/pty-host.ts';
import { createTmuxHost } from '../io/terminal/tmux/tmux-host.ts';
import type { TerminalHost } from '../io/terminal/types.ts';
import { isIdleEmpty, startMock, waitForReading } from '../tests/terminal/mock-worker.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';
import { formatTable } from './lib/table.ts';
import type { BenchResult } from './types.ts';

type Backend = 'pty' | 'tmux';
const TARGET: Record<Backend, number> = { pty: 100, tmux: 250 };

interface Samples {
  changed: number[];
  blocked: number[];
}

function makeHost(backend: Backend, dir: string): { host: TerminalHost; close(): Promise<void> } {
  if (backend === 'pty') {
    const host = createPtyHost();
    return { host, close: () => host.dispose() };
  }
  const host = createTmuxHost({ socketPath: join(dir, 'tmux.sock') });
  return { host, close: () => host.killServer() };
}

async function measure(backend: Backend, trials: number): Promise<Samples> {
  const dir = mkdtempSync(join(tmpdir(), `kh-bench-host-latency-${backend}-`));
  const { host, close } = makeHost(backend, dir);
  const samples: Samples = { changed: [], blocked: [] };
  try {
    const log = join(dir, 'events.jsonl');
    const { pane } = await startMock(host, { name: `latency-${backend}`, dir, env: { KH_MOCK_EVENT_LOG: log } });
    const changedAt: number[] = [];
    const unsubscribe = host.subscribe(pane.paneId, (e) => {
      if (e.type === 'changed') changedAt.push(nowMs());
    });
    for (let i = 0; i < trials; i++) {
      const sentAt = nowMs();
      await host.sendText(pane.paneId, `MODE:ask question ${i}`);
      await waitForReading(host, pane.paneId, (r) => r.state === 'blocked', `the menu of trial ${i}`);
      const blockedAt = nowMs();
      const drawn = (await awaitEvent(log, 'menu-drawn', sentAt)).t;
      const firstChange = changedAt.find((t) => t >= drawn);
      if (firstChange !== undefined) samples.changed.push(firstChange - drawn);
      samples.blocked.push(blockedAt - drawn);
      // Answer (option 1 is preselected) and wait for the box before the next trial.
      await host.sendKey(pane.paneId, 'enter');
      await waitForReading(host, pane.paneId, isIdleEmpty, `the idle box after trial ${i}`);
    }
    unsubscribe();
  } finally {
    await close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

export async function run(opts: { trials?: number; backends?: Backend[] } = {}): Promise<BenchResult[]> {
  const trials = opts.trials ?? (process.env.BENCH_QUICK === '1' ? 3 : 20);
  const results: BenchResult[] = [];
  for (const backend of opts.backends ?? (['pty', 'tmux'] as const)) {
    const s = await measure(backend, trials);
    results.push(
      summarise(`host changed event, ${backend}: menu drawn → changed`, 'ms', s.changed, TARGET[backend]),
      summarise(`host blocked reading, ${backend}: menu drawn → reading says blocked`, 'ms', s.blocked, TARGET[backend], 'readVisible + analyseScreen on every changed event'),
    );
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatTable(await run()));
}
