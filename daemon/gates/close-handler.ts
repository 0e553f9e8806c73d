/**
 * `hand close <id>` (counsel, issue 40): the close-out of a read-only worker, which has nothing
 * to land — its report is the result. A zero-commit dispatch used to have no end but `discard`,
 * which calls the work given up and puts its item back in the queue. Close: the report must be
 * there (read as a stranger's file), the worker not at work; then the agent is stopped (by
 * `/exit`, as `hand stop` does), the worker discarded (its worktree removed, never forced; its
 * branch, which holds no commit of its own, deleted; brief and report archived), and its backlog
 * item marked done. A worker not dispatched read-only is refused: it lands, or is discarded.
 */
import { RefusedError } from '../../contract/errors.ts';
import { unknownWorker } from '../../contract/refusals.ts';
import type { CallContext } from '../../contract/protocol.ts';
import type { CloseParams, CloseResult, DiscardedWorker, DiscardParams, StopParams } from '../../contract/methods.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import { readDelivery } from '../../io/brief/delivery-record.ts';
import { probeUntrustedFile, refusalLine } from '../../io/fs/untrusted-file.ts';

export interface CloseDeps {
  store: Pick<FleetStore, 'getWorker'>;
  fleet: Pick<FleetHostApi, 'view'>;
  stop(p: StopParams, ctx: CallContext): Promise<unknown>;
  discard(p: DiscardParams): Promise<DiscardedWorker>;
  itemDoneBy(worker: string, note: string): { id: string; state: 'done' } | null;
}

export async function closeWorker({ id, force }: CloseParams, ctx: CallContext, deps: CloseDeps): Promise<CloseResult> {
  const row = deps.store.getWorker(id);
  if (!row) throw unknownWorker(id);
  if (readDelivery(row.briefPath)?.readOnly !== true) {
    throw new RefusedError('not-read-only', `worker ${id} was not dispatched read-only: its work lands (hand land ${id}) or is given up (hand discard ${id}); close is for a read-only worker's report. Nothing was changed.`, { id });
  }
  const report = await probeUntrustedFile(row.reportPath);
  if (report.kind === 'refused') throw new RefusedError('report-refused', `worker ${id}'s report was ${refusalLine(report)} (${row.reportPath}); its report is the whole result, so it is not closed. Have it write the report again as a plain file. Nothing was changed.`, { id });
  if (report.kind === 'absent' && force !== true) {
    throw new RefusedError('no-report', `worker ${id} has not written its report (${row.reportPath}); its report is the whole result of a read-only worker. Read its screen (hand read ${id}); close --force gives it up without one. Nothing was changed.`, { id });
  }
  const view = deps.fleet.view(id);
  if (view && view.live === true && view.state === 'working' && force !== true) {
    throw new RefusedError('worker-working', `worker ${id} is still working; wait for it (hand wait ${id} --until settled), then close it. Nothing was changed.`, { id });
  }
  if (view && view.condition !== 'gone') await deps.stop({ id }, ctx);
  const discarded = await deps.discard({ id, deleteBranch: true });
  const item = report.kind === 'absent' ? null : deps.itemDoneBy(id, `closed: a read-only worker; its report is archived at ${discarded.archivedTo ?? 'its archive'}`);
  return { ...discarded, closed: true, reportArchived: discarded.archivedTo, ...(item ? { itemDone: item } : {}) };
}
