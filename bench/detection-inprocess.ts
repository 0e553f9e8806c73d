/**
 * Figures 1 and 2, in process: the mock agent logs the moment it draws a menu, ends a turn or
 * exits; the bench subscribes to the fleet host and notes when the worker's view first shows
 * blocked / settled / exited, and when a send first shows working. Per host: pty, tmux, herdr
 * (double). No socket or CLI in between: this is the supervisor's own detection time.
 */
import type { BackendName } from '../io/terminal/types.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeHost } from './lib/hosts.ts';
import { makeFleetWorld, isCondition, until, viewWhen } from './lib/fleet-world.ts';
import { awaitEvent, eventAfter } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';

export interface DetectionOptions {
  trials: number;
  exitTrials: number;
  log?: (msg: string) => void;
}

const BLOCKED_TARGET: Record<BackendName, number | null> = { pty: 150, tmux: 300, herdr: null };

export interface DetectionSamples {
  blocked: number[];
  settled: number[];
  working: number[];
  exited: number[];
  /** Trials where the actor went from settled to blocked without a working view in between. */
  missedWorking: number;
  /** Exit trials whose exit the actor never showed within the bound. */
  exitMissed: string[];
}

export async function measureHost(backend: BackendName, opts: DetectionOptions): Promise<DetectionSamples> {
  const world = makeWorld(`det-${backend}`);
  const host = await makeHost(backend, world.root);
  const { fleet, dispatch } = await makeFleetWorld(world, backend, host);
  const s: DetectionSamples = { blocked: [], settled: [], working: [], exited: [], missedWorking: 0, exitMissed: [] };

  const id = `det-${backend}`;
  const log = world.eventLog(id);
  await dispatch(id, world.workerEnv({ KH_MOCK_EVENT_LOG: log }));
  await until(fleet, id, 'settled');
  let missedWorking = 0;
  for (let i = 0; i < opts.trials; i++) {
    const sentAt = nowMs();
    // One subscription notes the first working view; a host that reads the screen only after
    // the menu is up (the working phase lasts KH_MOCK_REPLY_MS) may never show working.
    let workingAt: number | null = null;
    const offWorking = fleet.subscribe((v) => {
      if (v.id === id && workingAt === null && v.marks.includes('working')) workingAt = nowMs();
    });
    const blocked = viewWhen(fleet, id, 'blocked', isCondition('blocked'));
    await fleet.send(id, `MODE:ask question ${i}`);
    const blockedAt = await blocked;
    offWorking();
    if (workingAt === null) missedWorking++;
    else s.working.push(workingAt - sentAt);
    s.blocked.push(blockedAt - (await awaitEvent(log, 'menu-drawn', sentAt)).t);
    const answeredAt = nowMs();
    const settled = viewWhen(fleet, id, 'settled', isCondition('settled'));
    await fleet.key(id, 'enter');
    const settledAt = await settled;
    s.settled.push(settledAt - (await awaitEvent(log, 'turn-finished', answeredAt)).t);
  }
  s.missedWorking = missedWorking;
  opts.log?.(`${backend}: ${opts.trials} ask/answer trials done`);

  // Exit: each trial needs its own worker (a crash ends it). Dispatch them all first so the
  // dispatch work does not overlap the measured exits.
  const exitIds = Array.from({ length: opts.exitTrials }, (_, k) => `exit-${backend}-${k}`);
  for (const x of exitIds) {
    await dispatch(x, world.workerEnv({ KH_MOCK_EVENT_LOG: world.eventLog(x) }));
    await until(fleet, x, 'settled');
  }
  for (const x of exitIds) {
    const sentAt = nowMs();
    const gone = viewWhen(fleet, x, 'exited', isCondition('gone'));
    await fleet.send(x, 'MODE:crash now');
    try {
      const goneAt = await gone;
      s.exited.push(goneAt - (await awaitEvent(world.eventLog(x), 'exiting', sentAt)).t);
    } catch (err) {
      // An exit never noticed is a finding, not a reason to lose the other figures.
      s.exitMissed.push(`${x}: ${String(err)}; agent logged exiting: ${eventAfter(world.eventLog(x), 'exiting', sentAt) !== undefined}`);
      opts.log?.(s.exitMissed.at(-1)!);
    }
  }
  opts.log?.(`${backend}: ${opts.exitTrials} exit trials done`);
  return s;
}

export function detectionResults(backend: BackendName, s: DetectionSamples): BenchResult[] {
  const host = backend === 'herdr' ? 'herdr (double)' : backend;
  return [
    summarise(`blocked detection, ${host}: menu drawn → actor blocked`, 'ms', s.blocked, BLOCKED_TARGET[backend]),
    summarise(`settled detection, ${host}: turn finished → actor settled`, 'ms', s.settled, 300),
    summarise(`exit detection, ${host}: agent exits → actor exited`, 'ms', s.exited, 300, `from the mock's last log line before process.exit; ${s.exitMissed.length} of ${s.exited.length + s.exitMissed.length} exits not seen within 20 s`),
    summarise(`send → working, ${host}: fleet.send() called → actor working`, 'ms', s.working, null, `includes the guarded send (box read) and the agent's own redraw; ${s.missedWorking} trials never showed working (blocked came first)`),
  ];
}

export async function run(opts: DetectionOptions, backends: BackendName[] = ['pty', 'tmux', 'herdr']): Promise<{ results: BenchResult[]; blockedP50: Partial<Record<BackendName, number>> }> {
  const results: BenchResult[] = [];
  const blockedP50: Partial<Record<BackendName, number>> = {};
  for (const b of backends) {
    const r = detectionResults(b, await measureHost(b, opts));
    blockedP50[b] = r[0]!.p50;
    results.push(...r);
  }
  return { results, blockedP50 };
}
