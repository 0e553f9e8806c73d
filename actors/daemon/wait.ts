/**
 * `hand wait`: blocks on worker view changes pushed by the fleet host (an event, never a poll).
 * It wakes on the first condition that needs a person or ends the worker's turn; the awaited
 * condition decides whether that counts as success.
 */
import { RefusedError } from '../../io/errors.ts';
import type { FleetHostApi, WorkerViewLike } from './fleet-api.ts';

export type Until = 'settled' | 'blocked' | 'stalled' | 'exited' | 'any';
/** `unclassified`: a readable screen nobody could tell for longer than its bound (machines: running.unclassified). */
export type WaitReason = 'settled' | 'blocked' | 'stalled' | 'unclassified' | 'gone' | 'timeout' | 'wait-failed';

export interface WaitReport {
  id: string;
  reason: WaitReason;
  /** true when the awaited condition happened (exit 0). */
  met: boolean;
  stage: string;
  state: string;
  awaitingInput: boolean;
  blockedReason: string | null;
  promptBox: string | null;
  readable: boolean;
  lastActivity: string;
  quietMs: number | null;
  waitedMs: number;
}

const GONE_STAGES = ['stopped', 'gone', 'failed', 'lost', 'teardown', 'rejected', 'landed'];
/** Gate states wait on a person's approve/reject: to a script that waits, that is blocked. */
const GATE_LEAVES = ['awaitingBriefApproval', 'awaitingApproval'];
const SETTLED_STAGES = ['settled', 'reporting', 'done', 'parked'];
/**
 * The moments a settled worker spends finding and reading its report on the way to done or
 * parked. Not a condition yet: a wait that returned here left the caller's next command
 * (`hand land`, `hand status`) to find the worker "settled.checking" instead of done.
 */
const ON_THE_WAY_TO_DONE = new Set(['settled.checking', 'reporting']);

/** True while the worker is finding or reading its report, a moment short of done or parked. */
export function checkingItsReport(view: Pick<WorkerViewLike, 'stage'> | null | undefined): boolean {
  return view != null && ON_THE_WAY_TO_DONE.has(view.stage);
}

/** The condition a view shows right now, or null while the worker is busy (or starting). */
export function conditionOf(view: WorkerViewLike): Exclude<WaitReason, 'timeout'> | null {
  const top = view.stage.split('.')[0]!;
  const leaf = view.stage.split('.').at(-1)!;
  if (GONE_STAGES.includes(top) || view.live === false) return 'gone';
  if (leaf === 'waitFailed' || leaf === 'wait-failed') return 'wait-failed';
  if (view.awaitingInput || leaf === 'blocked' || GATE_LEAVES.includes(leaf)) return 'blocked';
  if (leaf === 'stalled') return 'stalled';
  if (leaf === 'unclassified') return 'unclassified';
  if (checkingItsReport(view)) return null;
  if (SETTLED_STAGES.includes(top) || SETTLED_STAGES.includes(leaf)) return 'settled';
  return null;
}

export function meets(reason: WaitReason, until: Until): boolean {
  if (reason === 'timeout' || reason === 'wait-failed') return false;
  if (until === 'any') return true;
  if (until === 'exited') return reason === 'gone';
  // Could-not-tell past its bound may hide a dialog: a wait for blocked wakes on it too.
  if (until === 'blocked' && reason === 'unclassified') return true;
  return reason === until;
}

export function report(view: WorkerViewLike, reason: WaitReason, until: Until, startedAt: number, now: number): WaitReport {
  return {
    id: view.id,
    reason,
    met: meets(reason, until),
    stage: view.stage,
    state: view.state,
    awaitingInput: view.awaitingInput,
    blockedReason: view.blockedReason ?? (GATE_LEAVES.includes(view.stage.split('.').at(-1)!) ? 'gate' : null),
    promptBox: view.promptBox,
    readable: view.readable,
    lastActivity: view.lastActivity,
    quietMs: view.lastChangeAt === null ? null : Math.max(0, now - view.lastChangeAt),
    waitedMs: now - startedAt,
  };
}

export function waitForWorker(
  fleet: FleetHostApi,
  id: string,
  until: Until,
  timeoutMs: number,
  opts: { signal?: AbortSignal; onChange?: (view: WorkerViewLike) => void; now?: () => number } = {},
): Promise<WaitReport> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  const first = fleet.view(id);
  if (!first) {
    return Promise.reject(new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}. \`hand status\` lists the workers.`, { id }));
  }
  return new Promise((resolve) => {
    let done = false;
    let last = first;
    const finish = (view: WorkerViewLike, reason: WaitReason) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      resolve(report(view, reason, until, startedAt, now()));
    };
    const consider = (view: WorkerViewLike) => {
      if (view.id !== id || done) return;
      last = view;
      opts.onChange?.(view);
      const cond = conditionOf(view);
      if (cond) finish(view, cond);
    };
    const unsubscribe = fleet.subscribe(consider);
    const timer = setTimeout(() => finish(last, 'timeout'), timeoutMs);
    opts.signal?.addEventListener('abort', () => finish(last, 'wait-failed'));
    consider(first);
  });
}
