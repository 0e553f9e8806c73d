/**
 * The daemon's side of `hand watch --needs-you`: what already waits on the person is sent first,
 * then one event per change of a worker's need (de-duplicated per worker and need: a repaint of
 * the same menu is not a second wake). A blocked worker's question and options come from its
 * view's dialog, or are read off its live screen once when the reader could not list them. Ends at
 * the bound or when the client leaves.
 */
import type { CallContext } from '../../contract/protocol.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { needOf, needsYouEvent, type Need, type NeedsYouEvent } from '../../actors/needs-you.ts';
import type { BaseNotice, BaseNotices } from './base-notices.ts';

/** A base branch moved outside a landing, as one needs-you event (base-notices.ts). */
export function baseMovedEvent(n: BaseNotice): NeedsYouEvent {
  return { worker: n.worker, project: n.project, need: 'base-moved', line: `${n.text} → ${n.command}`, question: null, options: [], fingerprint: null, command: n.command, at: new Date(n.at).toISOString() };
}

/** Wake events that are not a worker's state (the person's annotations): the open ones, and each new one. */
export interface NeedsYouSource {
  open(): NeedsYouEvent[];
  subscribe(fn: (e: NeedsYouEvent) => void): () => void;
}

export async function watchNeedsYou(fleet: FleetHostApi, timeoutMs: number, ctx: CallContext, baseNotices?: BaseNotices, sources: readonly NeedsYouSource[] = []): Promise<{ sent: number; pending: NeedsYouEvent[] }> {
  const last = new Map<string, Need | null>();
  let sent = 0;
  // Events go out in the order their views arrived, even when one needs a screen read first.
  let queue: Promise<void> = Promise.resolve();
  const consider = (v: WorkerViewLike) => {
    const need = needOf(v);
    if (last.get(v.id) === need) return;
    last.set(v.id, need);
    if (!need) return;
    queue = queue.then(async () => {
      // The view's dialog already carries the question and options; the screen is read only without one.
      const screen = need === 'blocked' && !v.dialog ? await fleet.readScreen(v.id).then((r) => (r.ok ? r.text : null)).catch(() => null) : null;
      ctx.progress(needsYouEvent(v, need, screen, Date.now()));
      sent += 1;
    });
  };
  for (const v of fleet.views()) consider(v);
  // A base moved outside a landing waits on the person too: the open ones first, then each new one.
  const tell = (n: BaseNotice) => {
    queue = queue.then(() => {
      ctx.progress(baseMovedEvent(n));
      sent += 1;
    });
  };
  for (const n of baseNotices?.open() ?? []) tell(n);
  const unsubscribe = baseNotices?.subscribe(tell);
  // The person's annotations (issue 40): the ones not taken yet, then each new one.
  const pass = (e: NeedsYouEvent) => {
    queue = queue.then(() => {
      ctx.progress(e);
      sent += 1;
    });
  };
  for (const src of sources) for (const e of src.open()) pass(e);
  const unsubscribers = sources.map((src) => src.subscribe(pass));
  await queue;
  try {
    await waitFor(fleet, null, () => false, { timeoutMs, signal: ctx.signal, onView: consider });
  } finally {
    unsubscribe?.();
    for (const u of unsubscribers) u();
  }
  await queue;
  const pending = [
    ...fleet.views().flatMap((v) => {
      const need = needOf(v);
      return need ? [needsYouEvent(v, need, null, Date.now())] : [];
    }),
    ...(baseNotices?.open() ?? []).map(baseMovedEvent),
    ...sources.flatMap((src) => src.open()),
  ];
  return { sent, pending };
}
