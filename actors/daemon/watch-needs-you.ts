/**
 * The daemon's side of `hand watch --needs-you`: what already waits on the person is sent first,
 * then one event per change of a worker's need (de-duplicated per worker and need: a repaint of
 * the same menu is not a second wake). A blocked worker's question and options come from its
 * view's dialog, or are read off its live screen once when the reader could not list them. Ends at
 * the bound or when the client leaves.
 */
import type { CallContext } from '../../contract/protocol.ts';
import type { FleetHostApi, WorkerViewLike } from '../fleet-api.ts';
import { waitFor } from '../wait-for.ts';
import { needOf, needsYouEvent, type Need, type NeedsYouEvent } from '../needs-you.ts';

export async function watchNeedsYou(fleet: FleetHostApi, timeoutMs: number, ctx: CallContext): Promise<{ sent: number; pending: NeedsYouEvent[] }> {
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
  await queue;
  await waitFor(fleet, null, () => false, { timeoutMs, signal: ctx.signal, onView: consider });
  await queue;
  const pending = fleet.views().flatMap((v) => {
    const need = needOf(v);
    return need ? [needsYouEvent(v, need, null, Date.now())] : [];
  });
  return { sent, pending };
}
