/**
 * Views are published from the actors themselves: one subscription on the fleet notices each
 * worker actor it spawns (or restores, or forgets), and one subscription per worker hands every
 * snapshot of that worker to `onSnapshot`. The journal's inspection hook is an audit trail and
 * persists; it is no longer how a waiter learns that a worker moved (issue 20 item 3).
 *
 * Order. XState notifies an actor's observers before it emits the inspection event of the same
 * snapshot, so `onSnapshot` runs before that snapshot is committed. The caller builds its view
 * there (from the snapshot of that moment, so no intermediate state is lost) and delivers it to
 * listeners from a microtask: after the commit, before any I/O — a waiter is never answered
 * with a state the database does not hold yet.
 */
import type { AnyActorRef, Subscription } from 'xstate';

export interface WorkerSnapshot {
  status: string;
  value?: unknown;
  context?: unknown;
}

interface Followed {
  ref: AnyActorRef;
  subscription: Subscription;
}

export interface FollowOptions {
  /** The worker's id for a child of the fleet, or null for a child that is not a worker. */
  workerIdOf(ref: AnyActorRef): string | null;
  /** Every snapshot of a followed worker (the first one is its snapshot when it was found). */
  onSnapshot(id: string, snapshot: WorkerSnapshot): void;
}

/** Follows the fleet's worker children until the returned function is called. */
export function followWorkers(fleet: AnyActorRef, o: FollowOptions): () => void {
  const followed = new Map<string, Followed>();
  let active = true;

  const follow = (id: string, ref: AnyActorRef): void => {
    // A worker's first snapshots were emitted while the fleet spawned it, before the fleet's own
    // observers ran: its state now stands for them.
    o.onSnapshot(id, ref.getSnapshot() as WorkerSnapshot);
    const subscription = ref.subscribe({
      next: (snapshot) => {
        if (active) o.onSnapshot(id, snapshot as WorkerSnapshot);
      },
      // A worker whose actor threw is published as such (its snapshot says status 'error').
      error: () => {
        if (active) o.onSnapshot(id, ref.getSnapshot() as WorkerSnapshot);
      },
    });
    followed.set(id, { ref, subscription });
  };

  const sync = (children: Record<string, AnyActorRef | undefined>): void => {
    const present = new Map<string, AnyActorRef>();
    for (const ref of Object.values(children)) {
      if (!ref) continue;
      const id = o.workerIdOf(ref);
      if (id !== null) present.set(id, ref);
    }
    for (const [id, f] of followed) {
      if (present.get(id) === f.ref) continue;
      f.subscription.unsubscribe();
      followed.delete(id);
    }
    for (const [id, ref] of present) if (!followed.has(id)) follow(id, ref);
  };

  const fleetSubscription = fleet.subscribe({
    next: (snapshot) => {
      if (active) sync((snapshot as { children?: Record<string, AnyActorRef | undefined> }).children ?? {});
    },
    error: () => {},
  });
  // A fleet restored from a snapshot already holds its children.
  sync((fleet.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> }).children ?? {});

  return () => {
    active = false;
    fleetSubscription.unsubscribe();
    for (const f of followed.values()) f.subscription.unsubscribe();
    followed.clear();
  };
}
