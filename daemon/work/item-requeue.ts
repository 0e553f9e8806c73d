/**
 * A worker that will never do its item's work — its brief rejected at the gate, or the worker
 * discarded — gives the item back: in flight → queued, journaled as `item:<id>` so the Hand's
 * views and a later reader see why it moved. Before, the item stayed in flight with no worker:
 * `backlog reopen` said it was open and `dispatch --item` refused it.
 */
import type { FleetStore } from '../../persistence/types.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import { SNAPSHOT_VERSION } from '../../actors/snapshot-codec.ts';

export type RequeueWhy = 'brief-rejected' | 'worker-discarded';

export function requeueItemOf(deps: { store: FleetStore; stores: WorkStores; log: (obj: Record<string, unknown>, msg: string) => void }, worker: string, why: RequeueWhy): { id: string; state: 'queued' } | null {
  const item = deps.stores.backlog.itemOfWorker(worker);
  if (!item || item.state !== 'in-flight') return null;
  deps.stores.backlog.requeue(item.id);
  deps.store.commit({
    snapshotVersion: SNAPSHOT_VERSION,
    journal: [{ actorId: `item:${item.id}`, event: { type: 'backlog.requeued', worker, why }, from: 'in-flight', to: 'queued', at: Date.now() }],
  });
  deps.log({ worker, item: item.id, why }, 'backlog item back in the queue');
  return { id: item.id, state: 'queued' };
}
