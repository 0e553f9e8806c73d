/**
 * Persisted snapshots in and out. The fleet row holds the fleet without its children; each
 * worker row holds that worker's own snapshot. On restore the rows are checked one by one and
 * composed back into one fleet snapshot, so one corrupt row costs that worker, never the fleet.
 */
import { createActor, type AnyStateMachine } from 'xstate';
import { workerMachine } from '../machines/worker.machine.ts';
import { fleetMachine, workerSystemId, type FleetContext } from '../machines/fleet.machine.ts';
import { CONTEXT_DEFAULTS_SINCE_V1, CONTEXT_DEFAULTS_SINCE_V2, type WorkerContext } from '../machines/worker.types.ts';
import type { WorkerRow } from '../persistence/types.ts';

/**
 * The one snapshot version: of worker rows and of the fleet row. Bump it when a stored snapshot
 * would no longer restore as it is, and teach migrateContext the step from the version before;
 * rows of a version it cannot migrate are skipped (reported, never fatal).
 *   1 → 2: the context fields once optional ("absent in older snapshots") are always present.
 *   2 → 3: the could-not-tell bound (unclassifiedAt, unclassifiedMs).
 */
export const SNAPSHOT_VERSION = 3;

/** Versions a row may be stored in and still restore (migrated on the way in). */
const MIGRATABLE = new Set([1, 2, SNAPSHOT_VERSION]);

export const isRestorableVersion = (v: number | null): boolean => v !== null && MIGRATABLE.has(v);

/** A stored worker context brought up to the current version (the next commit writes it back so). */
export function migrateContext(context: Record<string, unknown>, from: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...context };
  const fill = (defaults: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined) out[k] = v;
  };
  if (from <= 1) fill(CONTEXT_DEFAULTS_SINCE_V1);
  if (from <= 2) fill(CONTEXT_DEFAULTS_SINCE_V2);
  return out;
}

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
  if (row.snapshotVersion === null || !isRestorableVersion(row.snapshotVersion)) {
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
  const stored = snap.context as Record<string, unknown> | undefined;
  if (!stored || typeof stored !== 'object' || stored.id !== row.id) return { ok: false, reason: 'snapshot context does not belong to this worker' };
  const context = migrateContext(stored, row.snapshotVersion) as unknown as WorkerContext;
  snap = { ...snap, context };
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
