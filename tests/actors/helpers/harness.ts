/** Builds the real fleet wiring around a scripted host, an in-memory store and a simulated clock. */
import { mayBeHalfDrawn, UNSURE_HOLD_MS } from '../../../actors/pane-feed.ts';
import { afterEach } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createFleetHost, type FleetHost, type WorkerView } from '../../../actors/fleet-host.ts';
import type { LandingPort } from '../../../actors/ports.ts';
import type { WorkerPorts } from '../../../io/ports/worker-ports.ts';
import type { WorkerIntent } from '../../../persistence/types.ts';
import { MemoryStore } from './memory-store.ts';
import { ScriptedHost, scriptedAnalyse, reading } from './scripted-host.ts';
import type { ScreenReading } from '../../../io/screen/types.ts';
import { STARTUP_SETTLE_MS, SETTLE_QUIET_MS } from '../../../machines/worker.machine.ts';

export const T0 = 1_000_000;
export const STALL_MS = 20 * 60_000;

export interface Harness {
  fleet: FleetHost;
  store: MemoryStore;
  host: ScriptedHost;
  clock: SimulatedClock;
  reports: Set<string>;
  parked: Map<string, string>;
  /** Rebuild the fleet host over the same store and host (a daemon restart), on the same clock or the one given. */
  restart(clock?: SimulatedClock): Promise<{ restored: string[]; skipped: { id: string; reason: string }[] }>;
}

export function intent(id: string, over: Partial<WorkerIntent> = {}): WorkerIntent {
  return {
    id, project: 'demo', repo: '/repo', worktree: `/repo/.worktrees/${id}`, branch: `worktree-${id}`, base: 'main',
    backend: 'tmux', agent: 'mock', briefPath: `/data/${id}/brief.md`, reportPath: `/data/${id}/report.md`, createdAt: T0, ...over,
  };
}

export interface HarnessOptions {
  host?: ScriptedHost;
  ports?: Partial<WorkerPorts>;
  landing?: LandingPort;
}

export function makeHarness(opts: HarnessOptions = {}): Harness {
  const store = new MemoryStore();
  const host = opts.host ?? new ScriptedHost();
  const clock = new SimulatedClock();
  clock.set(T0);
  const reports = new Set<string>();
  const parked = new Map<string, string>();
  const ports: WorkerPorts = {
    prepareWorktree: async () => {},
    seedAgent: async () => {},
    launchSpec: () => ({ argv: ['mock-agent'], env: {} }),
    reportExists: async (p) => reports.has(p),
    readReport: async (p) => ({ waitingOn: parked.get(p) ?? null }),
    // Transparent senders: the machine's own guard is what these tests examine.
    sendText: (h, paneId, text) => h.sendText(paneId, text),
    sendKey: (h, paneId, key) => h.sendKey(paneId, key),
    ...opts.ports,
  };
  const build = () => createFleetHost({ store, hosts: { [host.backend]: host }, ports, clock: h.clock, analyse: scriptedAnalyse, landing: opts.landing });
  const h: Harness = {
    fleet: null as unknown as FleetHost,
    store, host, clock, reports, parked,
    async restart(next?: SimulatedClock) {
      await h.fleet.shutdown();
      if (next) h.clock = next;
      h.fleet = build();
      return h.fleet.start();
    },
  };
  h.fleet = build();
  return h;
}

/** A harness whose fleet has started (the first two lines of nearly every test). */
export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const h = makeHarness(opts);
  await h.fleet.start();
  return h;
}

/**
 * Registers the shutdown of every harness the file's tests make; call once at the top of a test
 * file. `make` is makeHarness and `start` is startHarness, each torn down after the test;
 * `working` also walks worker `id` to running.working and gives its pane (the first lines of
 * most tests).
 */
export function useHarness(): {
  make(opts?: HarnessOptions): Harness;
  start(opts?: HarnessOptions): Promise<Harness>;
  working(id?: string, opts?: HarnessOptions): Promise<{ h: Harness; pane: string }>;
} {
  const made: Harness[] = [];
  afterEach(async () => {
    for (const h of made.splice(0)) await h.fleet.shutdown();
  });
  const make = (opts: HarnessOptions = {}) => {
    const h = makeHarness(opts);
    made.push(h);
    return h;
  };
  const start = async (opts: HarnessOptions = {}) => {
    const h = make(opts);
    await h.fleet.start();
    return h;
  };
  return {
    make,
    start,
    async working(id = 'w1', opts = {}) {
      const h = await start(opts);
      return { h, pane: await toWorking(h, id) };
    },
  };
}

/**
 * Show `pane` a reading and let what it causes run to completion. A could-not-tell reading right
 * after a working or blocked one is held by the feed for the rest of its frame (UNSURE_HOLD_MS):
 * shown here as a screen that stays, so the clock moves on by the hold and the worker gets it.
 */
export async function show(h: Harness, pane: string, r: ScreenReading): Promise<void> {
  const held = mayBeHalfDrawn(h.host.current(pane), r);
  h.host.show(pane, r);
  await settle(h);
  if (held) await advance(h, UNSURE_HOLD_MS);
}

/** Move the simulated clock and let what it fired run to completion. */
export async function advance(h: Harness, ms: number): Promise<void> {
  h.clock.increment(ms);
  await settle(h);
}

/** Let promise actors and pane reads run to completion. */
export async function settle(h: Harness): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await h.fleet.quiesce();
    await new Promise((r) => setImmediate(r));
  }
}

/** Show a starting worker its first idle screen and let the startup settle time run out (the first prompt goes out then). */
export async function showStartScreen(h: Harness, pane: string, r: ScreenReading = reading()): Promise<void> {
  h.host.show(pane, r);
  await settle(h);
  h.clock.increment(STARTUP_SETTLE_MS);
  await settle(h);
}

/** Show a working worker the idle screen its turn ended on, and let the settle window run out. */
export async function showTurnEnd(h: Harness, pane: string, r: ScreenReading = reading({ fingerprint: 'f-idle2' })): Promise<void> {
  h.host.show(pane, r);
  await settle(h);
  h.clock.increment(SETTLE_QUIET_MS);
  await settle(h);
}

/** Dispatch `id` on the harness's host with the test stall time; the view dispatch answers with. */
export function dispatchBrief(h: Harness, id: string, firstPrompt = `brief ${id}`): Promise<WorkerView> {
  return h.fleet.dispatch({ intent: intent(id, { backend: h.host.backend }), stallMs: STALL_MS, firstPrompt });
}

/** Dispatch `id` and walk it to running.working on a readable working screen. */
export async function toWorking(h: Harness, id: string, fingerprint = 'f-work'): Promise<string> {
  const v = await dispatchBrief(h, id);
  const pane = v.paneId!;
  await showStartScreen(h, pane);
  h.host.show(pane, reading({ state: 'working', fingerprint }));
  await settle(h);
  const stage = h.fleet.view(id)!.stage;
  if (stage !== 'running.working') throw new Error(`${id} did not reach running.working (at ${stage})`);
  return pane;
}
