/**
 * An in-process fleet host wired exactly like the daemon's (real SQLite store, real worker ports,
 * real terminal host), so a benchmark can subscribe to worker views with no socket in between.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../persistence/sqlite-store.ts';
import { createFleetHost, type FleetHost, type WorkerView } from '../../actors/fleet-host.ts';
import { createRealPorts } from '../../io/ports/real-ports.ts';
import { firstPrompt } from '../../daemon/fleet/dispatch.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import type { BackendName, TerminalHost } from '../../io/terminal/types.ts';
import { onCleanup } from './cleanup.ts';
import { nowMs } from './stats.ts';
import type { BenchWorld } from './world.ts';

export interface FleetWorld {
  fleet: FleetHost;
  /** `agent`: the mock unless a real CLI is measured (its binary and fake API come with `env`). */
  dispatch(id: string, env: Record<string, string>, agent?: string): Promise<WorkerView>;
}

/** `daemonEnv`: more of the daemon's own environment (an agent found by HAND_<AGENT>_BIN). */
export async function makeFleetWorld(world: BenchWorld, backend: BackendName, host: TerminalHost, daemonEnv: Record<string, string> = {}): Promise<FleetWorld> {
  const store = openStore(join(world.root, `fleet-${backend}.db`));
  store.upsertProject({ name: 'bench', repo: world.repo, posture: 'local-only', yolo: true, registeredAt: Date.now() });
  const ports = createRealPorts({ fallbackEnv: { ...world.workerEnv(), ...daemonEnv } });
  const fleet = createFleetHost({ store, hosts: { [backend]: host }, ports });
  await fleet.start();
  onCleanup(`in-process fleet (${backend})`, async () => {
    // Stop every worker's agent first so no process outlives the bench, then the actors.
    for (const v of fleet.views()) if (v.paneId) await host.close(v.paneId).catch(() => {});
    await fleet.shutdown();
    store.close();
  });
  return {
    fleet,
    async dispatch(id, env, agent = 'mock') {
      ports.rememberCallerEnv(id, env);
      const workers = join(world.root, 'workers', backend, id);
      mkdirSync(workers, { recursive: true });
      copyFileSync(world.brief(id), join(workers, 'brief.md'));
      const intent = {
        id,
        project: 'bench',
        repo: world.repo,
        worktree: join(world.repo, '.claude', 'worktrees', id),
        branch: `worktree-${id}`,
        base: 'main',
        backend,
        agent,
        briefPath: join(workers, 'brief.md'),
        reportPath: join(workers, 'report.md'),
        createdAt: Date.now(),
      };
      return fleet.dispatch({ intent, stallMs: 20 * 60_000, firstPrompt: firstPrompt(intent.briefPath, intent.reportPath) });
    },
  };
}

/**
 * Arms a watch BEFORE the action that should cause a change: resolves with the wall-clock time
 * (nowMs) of the first view of `id` that `accept` takes. Bounded, with a message naming the wait.
 */
export function viewWhen(fleet: FleetHost, id: string, what: string, accept: (v: WorkerView) => boolean, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for worker ${id} to be ${what} (last stage ${fleet.view(id)?.stage})`));
    }, timeoutMs);
    const off = fleet.subscribe((v) => {
      if (v.id !== id || !accept(v)) return;
      const t = nowMs();
      clearTimeout(timer);
      off();
      resolve(t);
    });
  });
}

export const isCondition = (c: ReturnType<typeof conditionOf>) => (v: WorkerView) => conditionOf(v) === c;

/** Resolves once the worker shows `c` now or later. */
export async function until(fleet: FleetHost, id: string, c: ReturnType<typeof conditionOf>, timeoutMs = 30_000): Promise<void> {
  const now = fleet.view(id);
  if (now && conditionOf(now) === c) return;
  await viewWhen(fleet, id, String(c), isCondition(c), timeoutMs);
}

/**
 * A real agent's ask/answer trials (bench/detection-gemini.ts, detection-opencode.ts, detection-qwen.ts): each trial
 * sends `MODE:ask`, times the fake's chosen question reply (`isAsk`, the reply then goes out whole)
 * → the actor blocked, then Enter → the actor settled.
 */
export async function askAnswerTrials<R>(fleet: FleetHost, id: string, trials: number, fake: { onRequest(listener: (r: R) => void): () => void }, isAsk: (r: R) => boolean): Promise<{ blocked: number[]; settled: number[] }> {
  const blocked: number[] = [];
  const settled: number[] = [];
  for (let i = 0; i < trials; i++) {
    let servedAt = 0;
    const off = fake.onRequest((r) => {
      if (isAsk(r)) servedAt = nowMs();
    });
    const shown = viewWhen(fleet, id, 'blocked', isCondition('blocked'), 40_000);
    await fleet.send(id, `MODE:ask question ${i}`);
    const blockedAt = await shown;
    off();
    blocked.push(blockedAt - servedAt);
    const done = viewWhen(fleet, id, 'settled', isCondition('settled'), 40_000);
    const answeredAt = nowMs();
    await fleet.key(id, 'enter');
    settled.push((await done) - answeredAt);
  }
  return { blocked, settled };
}
