/**
 * The fleet's transitions are never lost to a database that cannot take them for a while
 * (issue 25 items 1 and 2): another process holding a write lock on fleet.db, or a full disk.
 * A commit that fails for one of those reasons is kept, in order, and every later commit waits
 * behind it (a journal row is never written before an earlier one); a timer retries the oldest
 * until the database takes it, then the rest. Each commit is one transaction, so a failed try
 * leaves nothing behind and the retry writes its rows exactly once.
 *
 * The connection's busy timeout is short (`COMMIT_BUSY_TIMEOUT_MS`): better-sqlite3 is
 * synchronous, and the five seconds it used to wait blocked the daemon's event loop on every
 * write while the lock was held (`hand send` took 29 s).
 */
import type { FleetStore } from './types.ts';
import type { StoreHealth } from '../contract/methods/fleet.ts';
import { isDiskFullError, isIoError, isLockedError } from '../contract/store-errors.ts';

/** How long one write waits for another connection's lock before the commit is queued (ms). */
export const COMMIT_BUSY_TIMEOUT_MS = 50;
/** How often the oldest queued commit is tried again while the database refuses it (ms). */
export const COMMIT_RETRY_MS = 250;

export type CommitArgs = Parameters<FleetStore['commit']>[0];

/** Why the database does not take writes now: it is locked by another process, or full. */
export type StoreTrouble = 'locked' | 'full';

export type { StoreHealth };

export interface CommitTimer {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** SQLite's answer for a database that will take the write later; null for any other failure. */
export function troubleOf(err: unknown): StoreTrouble | null {
  if (isLockedError(err)) return 'locked';
  if (isDiskFullError(err) || isIoError(err)) return 'full';
  return null;
}

export class CommitQueue {
  private readonly queue: CommitArgs[] = [];
  private timer: unknown = null;
  private health: StoreHealth | null = null;

  constructor(
    private readonly store: Pick<FleetStore, 'commit' | 'reclaimSpace'>,
    private readonly o: {
      timer: CommitTimer;
      retryMs?: number;
      /** Called when the database stops or starts taking writes again (null: healthy). */
      onHealth?(health: StoreHealth | null): void;
      log?(obj: Record<string, unknown>): void;
    },
  ) {}

  /** Writes now, or keeps the commit (after every earlier one) until the database takes it. */
  commit(args: CommitArgs): void {
    if (this.queue.length > 0) {
      this.queue.push(args);
      this.health!.pending = this.queue.length;
      return;
    }
    try {
      this.store.commit(args);
    } catch (err) {
      const trouble = troubleOf(err);
      if (trouble === null) throw err;
      this.queue.push(args);
      this.troubled(trouble, err);
      this.arm();
    }
  }

  get pending(): number {
    return this.queue.length;
  }

  get state(): StoreHealth | null {
    return this.health ? { ...this.health } : null;
  }

  /** Tries every queued commit once, in order; true when nothing is left. */
  drain(): boolean {
    // A full disk: fold the log back first, or the space the person freed goes to its old frames.
    if (this.health?.trouble === 'full') this.store.reclaimSpace?.();
    while (this.queue.length > 0) {
      try {
        this.store.commit(this.queue[0]!);
      } catch (err) {
        const trouble = troubleOf(err);
        if (trouble === null) {
          // Not the database's state but this commit's own content: it can never be written.
          this.o.log?.({ msg: 'a queued transition could not be written and was dropped', err: String(err) });
          this.queue.shift();
          continue;
        }
        this.troubled(trouble, err);
        return false;
      }
      this.queue.shift();
    }
    if (this.health) {
      this.o.log?.({ msg: 'the state database takes writes again', trouble: this.health.trouble, sinceMs: this.o.timer.now() - this.health.since });
      this.health = null;
      this.o.onHealth?.(null);
    }
    return true;
  }

  /**
   * Shutdown: keeps trying (without blocking the event loop) until the queue is written or
   * `boundMs` has passed; what is still queued then is returned, for the caller to report.
   */
  async settle(boundMs: number): Promise<CommitArgs[]> {
    const end = this.o.timer.now() + boundMs;
    while (!this.drain() && this.o.timer.now() < end) {
      await new Promise<void>((resolve) => this.o.timer.setTimeout(resolve, this.o.retryMs ?? COMMIT_RETRY_MS));
    }
    return this.stop();
  }

  /** Stops retrying (shutdown); what is still queued is returned to the caller. */
  stop(): CommitArgs[] {
    if (this.timer !== null) this.o.timer.clearTimeout(this.timer);
    this.timer = null;
    return this.queue.splice(0);
  }

  private troubled(trouble: StoreTrouble, err: unknown): void {
    const detail = err instanceof Error ? err.message : String(err);
    const first = this.health === null;
    const changed = first || this.health!.trouble !== trouble;
    this.health = { trouble, since: this.health?.since ?? this.o.timer.now(), pending: this.queue.length, detail };
    if (changed) {
      this.o.log?.({ msg: trouble === 'locked' ? 'the state database is locked by another process; transitions are kept in order until it is free' : 'the disk under the state database is full; transitions are kept in order until there is space', detail, pending: this.queue.length });
      this.o.onHealth?.(this.state);
    }
  }

  private arm(): void {
    if (this.timer !== null) return;
    this.timer = this.o.timer.setTimeout(() => {
      this.timer = null;
      if (!this.drain()) this.arm();
    }, this.o.retryMs ?? COMMIT_RETRY_MS);
  }
}
