/**
 * Deadlines survive a restart as absolute times, and are re-checked on the way in: the new
 * daemon's clock starts from the wall clock, which may have been set back since the old one
 * wrote them. Both copies are re-checked — the context (guards read it) and the persisted
 * input of each invoked deadline actor (its callback re-runs with that input on restore).
 */
import { recheckContext, recheckedAt } from '../machines/worker.deadlines.ts';
import type { DeadlineName, WorkerContext } from '../machines/worker.types.ts';

type Json = Record<string, unknown>;

function recheckChildren(children: unknown, c: WorkerContext, now: number): unknown {
  if (!children || typeof children !== 'object') return children;
  const out: Json = {};
  for (const [key, child] of Object.entries(children as Json)) {
    const ch = child as { src?: unknown; snapshot?: { input?: { at?: unknown; name?: unknown }; children?: unknown } };
    const input = ch?.snapshot?.input;
    if (ch?.src === 'deadline' && input && typeof input.at === 'number' && typeof input.name === 'string') {
      out[key] = { ...ch, snapshot: { ...ch.snapshot, input: { ...input, at: recheckedAt(input.name as DeadlineName, input.at, c, now) } } };
    } else out[key] = child;
  }
  return out;
}

/** A persisted worker snapshot with its deadlines re-checked against `now`. */
export function recheckSnapshotDeadlines<S extends Json>(snap: S, now: number): S {
  const context = snap.context as WorkerContext | undefined;
  if (!context) return snap;
  return { ...snap, context: recheckContext(context, now), children: recheckChildren(snap.children, context, now) };
}
