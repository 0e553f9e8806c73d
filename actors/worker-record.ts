/**
 * One record per worker, held by the fleet host in one map: what we asked for (intent), the
 * pane feed, the pane's liveness, the last snapshot its actor published (a worker in a final
 * state leaves the system registry, so this is how it is still shown), when it last changed,
 * the stage its feed last re-read for, and whether a restore left it resuming a spawn.
 * Forgetting a worker is dropping its record; nothing is kept in parallel maps.
 */
import { readDelivery } from '../io/brief/delivery-record.ts';
import type { WorkerContext } from '../machines/worker.types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { PaneFeed } from './pane-feed.ts';
import { newWitness, type WitnessState } from './witness.ts';

/** The part of an actor snapshot the host reads (live or restored from a row). */
export interface WorkerSnap {
  value: unknown;
  status: string;
  context: WorkerContext;
}

export interface WorkerRecord {
  readonly intent: WorkerIntent;
  /** Dispatched read-only (counsel): its delivery record says so; its report is its result. */
  readOnly: boolean;
  feed: PaneFeed | null;
  /** true = process running, false = exited, null = could not tell (or no pane yet). */
  live: boolean | null;
  /** The last snapshot seen (null until the actor publishes one, or for a crashed row). */
  snapshot: WorkerSnap | null;
  /** When the actor last changed (the intent's createdAt until it does). */
  updatedAt: number;
  /** The stage the feed was last asked to re-read for (a phase change re-reads the screen). */
  lastStage: string | null;
  /**
   * Restored in `spawning`: the previous daemon may have made its pane already, so one named
   * after the worker is looked for before another is created. Cleared once asked.
   */
  resumingSpawn: boolean;
  /** What the worker's Claude Code hooks said, beside its screen (actors/witness.ts); memory only. */
  witness: WitnessState;
  /** The pending wake-up for a disagreement turning into a dispute. */
  disputeTimer: unknown;
}

export function newRecord(intent: WorkerIntent, over: Partial<Omit<WorkerRecord, 'intent'>> = {}): WorkerRecord {
  // Read once per record (a small file in the daemon's own directory, absent for most workers).
  const readOnly = readDelivery(intent.briefPath)?.readOnly === true;
  return { intent, feed: null, live: null, snapshot: null, updatedAt: intent.createdAt, lastStage: null, resumingSpawn: false, witness: newWitness(), disputeTimer: null, readOnly, ...over };
}
