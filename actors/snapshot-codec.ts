/**
 * Persisted snapshots in and out. The fleet row holds the fleet without its children; each
 * worker row holds that worker's own snapshot. On restore the rows are checked one by one and
 * composed back into one fleet snapshot, so one corrupt row costs that worker, never the fleet.
 */
import { createActor, type AnyStateMachine } from 'xstate';
import { workerMachine } from '../machines/worker.machine.ts';
import { fleetMachine, workerSystemId, type FleetContext } from '../machines/fleet.machine.ts';
import type { WorkerContext } from '../machines/worker.types.ts';
import type { WorkerRow } from '../persistence/types.ts';

/** Bump when a stored snapshot would no longer restore (rows of another version are skipped). */
export const SNAPSHOT_VERSION = 1;

type Json = Record<string, unknown>;

export function fleetRowJson(persisted: unknown): string {
  const { children: _children, ...rest } = persisted as Json;
  return JSON.stringify(rest);
}

export type CheckedRow =
  | { ok: true; snapshot: Json; status: 'active' | 'done' | 'error'; context: WorkerContext; value: unknown }
  | { ok: false; reason: string };

/** Parse and validate one worker row against the current worker machine. Never throws. */
export function checkWorkerRow(row: WorkerRow): CheckedRow {
  if (row.snapshotJson === null) return { ok: false, reason: 'no snapshot was ever written' };
  if (row.snapshotVersion !== SNAPSHOT_VERSION) {
    return { ok: false, reason: `snapshot version ${String(row.snapshotVersion)} is not ${SNAPSHOT_VERSION}` };
  }
  let snap: Json;
  try {
    snap = JSON.parse(row.snapshotJson) as Json;
  } catch (err) {
    return { ok: false, reason: `snapshot is not JSON: ${(err as Error).message}` };
  }
  if (!snap || typeof snap !== 'object') return { ok: false, reason: 'snapshot is not an object' };
  const status = snap.status;
  if (status !== 'active' && status !== 'done' && status !== 'error') return { ok: false, reason: `unknown snapshot status ${JSON.stringify(status)}` };
  const context = snap.context as WorkerContext | undefined;
  if (!context || typeof context !== 'object' || context.id !== row.id) return { ok: false, reason: 'snapshot context does not belong to this worker' };
  if (status === 'error') return { ok: true, snapshot: snap, status, context, value: snap.value };
  try {
    // Resolving the state value against the machine throws on a state that no longer exists.
    workerMachine.resolveState({ value: snap.value as never, context });
    // Restoring (without starting) checks the children too; nothing runs until start().
    createActor(workerMachine as AnyStateMachine, { snapshot: snap as never });
  } catch (err) {
    return { ok: false, reason: `snapshot does not fit the worker machine: ${(err as Error).message}` };
  }
  return { ok: true, snapshot: snap, status, context, value: snap.value };
}

/** The fleet's own context from its row, or a fresh one when absent or unusable. */
export function fleetContextFrom(json: string | null): FleetContext {
  const fresh: FleetContext = { workers: {} };
  if (!json) return fresh;
  try {
    const snap = JSON.parse(json) as Json;
    const ctx = snap.context as FleetContext | undefined;
    if (ctx && typeof ctx.workers === 'object' && ctx.workers !== null) return { workers: ctx.workers };
  } catch {
    // fall through: a corrupt fleet row costs the registry's crash notes, not the workers
  }
  return fresh;
}

/** One fleet snapshot holding the given worker snapshots as spawned children. */
export function composeFleetSnapshot(context: FleetContext, workers: Record<string, Json>): unknown {
  const base = createActor(fleetMachine).getPersistedSnapshot() as Json;
  const children: Record<string, unknown> = {};
  for (const [id, snapshot] of Object.entries(workers)) {
    children[id] = { snapshot, src: 'worker', systemId: workerSystemId(id), syncSnapshot: false };
  }
  return { ...base, context, children };
}
