/**
 * `hand wait`: blocks on worker view changes pushed by the fleet host (an event, never a poll).
 * It wakes on the first condition that needs a person or ends the worker's turn; the awaited
 * condition decides whether that counts as success.
 */
import { unknownWorker } from '../contract/refusals.ts';
import { waitReasonOf } from './condition.ts';
import { waitFor } from './wait-for.ts';
import type { FleetHostApi, WorkerViewLike } from './fleet-api.ts';
import { quoteDialog, quotedOrEmpty, quoteWorker } from '../contract/worker-words.ts';

import type { Until, WaitReason } from '../contract/vocabulary.ts';

export type { Until, WaitReason } from '../contract/vocabulary.ts';

/** The wire shape lives in contract/ (the CLI reads it too); built here by `report`. */
export type { WaitReport } from '../contract/methods.ts';
import type { WaitReport } from '../contract/methods.ts';

/**
 * True while the worker is finding or reading its report, a moment short of done or parked.
 * Not a condition a wait wakes for: a wait that returned here left the caller's next command
 * (`hand land`, `hand status`) to find the worker "settled.checking" instead of done.
 */
export function checkingItsReport(view: Pick<WorkerViewLike, 'condition'> | null | undefined): boolean {
  return view != null && view.condition === 'checking';
}

/** The condition a view shows right now, or null while the worker is busy (or starting): see actors/condition.ts. */
export const conditionOf = (view: WorkerViewLike): Exclude<WaitReason, 'timeout'> | null => waitReasonOf(view);

export function meets(reason: WaitReason, until: Until): boolean {
  if (reason === 'timeout' || reason === 'wait-failed') return false;
  if (until === 'any') return true;
  if (until === 'exited') return reason === 'gone';
  // Could-not-tell past its bound may hide a dialog: a wait for blocked wakes on it too.
  if (until === 'blocked' && (reason === 'unclassified' || reason === 'disputed')) return true;
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
    // A hook's message (the worker's words) stands in when the hook made it blocked: quoted.
    blockedReason: view.hookReason ? quoteWorker(view.id, view.hookReason) : (view.blockedReason ?? (view.condition === 'gate' ? 'gate' : null)),
    // The worker's words (a dialog's question and labels, the screen's last lines), quoted.
    dialog: quoteDialog(view.id, view.dialog),
    promptBox: view.promptBox,
    readable: view.readable,
    couldNotTell: view.couldNotTell ?? null,
    lastActivity: quotedOrEmpty(view.id, view.lastActivity),
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
    return Promise.reject(unknownWorker(id));
  }
  const { signal, onChange } = opts;
  return waitFor(fleet, id, (v) => conditionOf(v) !== null, { timeoutMs, signal, onView: onChange, last: first }).then(({ view, by }) => {
    const v = view ?? first;
    const reason: WaitReason = by === 'accepted' ? conditionOf(v)! : by === 'timeout' ? 'timeout' : 'wait-failed';
    return report(v, reason, until, startedAt, now());
  });
}
