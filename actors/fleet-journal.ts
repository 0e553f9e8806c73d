/**
 * Every transition of every actor goes to the journal, and the persisted snapshot of the actor
 * that moved is written in the same store.commit() (one SQLite transaction): a crash leaves both
 * or neither. Fed by actor inspection: an audit trail, never control flow — views reach waiters
 * from the actors' own subscriptions (follow-workers.ts), never from here.
 *
 * Journaled: every event that moved a state value, plus every command and host event even when
 * it moved nothing (a refused SEND is history too). Screen updates that only refresh the reading
 * update the snapshot without a journal row, or the journal would grow with every repaint.
 */
import { createHash } from 'node:crypto';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import type { FleetStore, JournalEntry } from '../persistence/types.ts';
import { CommitQueue, type CommitArgs, type StoreHealth } from '../persistence/commit-queue.ts';
import { fleetRowJson, SNAPSHOT_VERSION } from './snapshot-codec.ts';
import type { Clock } from './ports.ts';
import { stagePath } from './condition.ts';
import { workerIdOfSystemId } from '../machines/fleet.machine.ts';

const QUIET_EVENTS = new Set(['SCREEN', 'DEADLINE']);

/**
 * A repaint that moved no state (a streaming worker redraws ~10 times a second) is written at
 * most this often per worker, as one trailing write. Phase changes, commands and host events are
 * written at once. A SIGKILL can lose at most this much of a reading's refresh, never a phase:
 * on restart the screen is read again anyway.
 */
export const QUIET_WRITE_MS = 1000;

export interface JournalOptions {
  store: FleetStore;
  clock: Clock;
  log?: (obj: Record<string, unknown>) => void;
  /** The database stopped (or started again) taking writes: a lock held by another process, a full disk. */
  onStoreHealth?: (health: StoreHealth | null) => void;
}

/** The parts of a worker's context that arm or move its restart-safe deadlines. */
function timerKey(snapshot: unknown): string {
  const c = (snapshot as { context?: { fingerprint?: string; lastChangeAt?: number | null; stallAt?: number | null } }).context;
  return `${c?.fingerprint ?? ''}|${c?.lastChangeAt ?? ''}|${c?.stallAt ?? ''}`;
}

/** Drop bulky or volatile parts of an event before it is journaled. */
function journalEvent(event: { type: string } & Record<string, unknown>): unknown {
  if (event.type === 'SCREEN') {
    const r = event.reading as { state?: string; readable?: boolean; fingerprint?: string; awaitingInput?: boolean; pouring?: boolean } | undefined;
    // turnEnded: the agent's own turn-end word came with this screen (the witness settled it, not the quiet window).
    // pouring: read while its pane still drew (no quiet time ran from it).
    return {
      type: 'SCREEN', at: event.at, state: r?.state, readable: r?.readable, awaitingInput: r?.awaitingInput, fingerprint: r?.fingerprint,
      ...(event.turnEnded === true ? { turnEnded: true } : {}), ...(r?.pouring === true ? { pouring: true } : {}),
    };
  }
  // What `hand send` typed may be a secret (issue 24 item 7: one stayed in fleet.db and every
  // backup for good): the journal keeps its length and a hash prefix, enough to tell two sends apart.
  if (event.type === 'SEND' && typeof event.text === 'string') {
    const { text, ...rest } = event;
    return { ...rest, textLength: text.length, textSha256: createHash('sha256').update(text).digest('hex').slice(0, 16) };
  }
  if (event.type === 'DISPATCH') return { type: 'DISPATCH', id: (event.input as { id?: string } | undefined)?.id };
  if (event.type.startsWith('xstate.error.actor.')) return { type: event.type, error: String(event.error) };
  if (event.type.startsWith('xstate.done.actor.')) return { type: event.type };
  return event;
}

/**
 * A worker's row without the screen's last words: the reading's lastActivity echoes what was
 * typed into the box (a `hand send` secret included), and a restored worker reads its screen
 * afresh before anyone is told anything, so the stored copy is worth nothing and costs a leak.
 */
function workerRowJson(persisted: unknown): string {
  return JSON.stringify(persisted, (key, value: unknown) => (key === 'lastActivity' && typeof value === 'string' ? '' : value));
}

export class FleetJournal {
  private enabled = false;
  private readonly lastValue = new WeakMap<AnyActorRef, string>();
  private lastFleetJson = '';
  private readonly pendingQuiet = new Map<string, { ref: AnyActorRef; handle: unknown }>();
  /** Per worker, the deadline-bearing part of the context last written (see timerKey). */
  private readonly writtenTimers = new Map<string, string>();
  fleetRef: AnyActorRef | null = null;
  /** Every write goes through it: a locked or full database delays rows, never loses or reorders them. */
  private readonly commits: CommitQueue;
  /** The commits of a batch under way (batch()), written together when it ends. */
  private held: CommitArgs[] | null = null;

  constructor(private readonly o: JournalOptions) {
    this.commits = new CommitQueue(o.store, { timer: o.clock, log: o.log, onHealth: o.onStoreHealth });
  }

  /** Null while the database takes writes; else why not, since when, and how many transitions wait. */
  get storeHealth(): StoreHealth | null {
    return this.commits.state;
  }

  enable(): void {
    this.enabled = true;
  }

  /** After this nothing is written: stopping actors must not overwrite their resting state. */
  disable(): void {
    this.enabled = false;
  }

  /**
   * Runs `fn` (synchronous) and writes every transition it caused in one transaction when it
   * returns, in the order they came. A resume starts hundreds of restored actors at once, each
   * journalling its start: one SQLite transaction each held the daemon's thread 130–230 ms of a
   * resume of 500 (issue 46). Nothing is answered to anyone while `fn` runs, so the rows reach the
   * database before any reply could speak of them. A batch the database refuses for its content
   * (not a lock or a full disk, which the queue keeps and retries) is written commit by commit,
   * so one bad row costs its own commit, as it would have alone.
   */
  batch(fn: () => void): void {
    if (this.held) return fn();
    const held: CommitArgs[] = [];
    this.held = held;
    try {
      fn();
    } finally {
      this.held = null;
      if (held.length > 0) this.writeBatch(held);
    }
  }

  private writeBatch(held: CommitArgs[]): void {
    try {
      this.commits.commit(mergeCommits(held));
    } catch {
      for (const args of held) {
        try {
          this.commits.commit(args);
        } catch (err) {
          this.o.log?.({ msg: 'persisting a transition failed', err: String(err) });
        }
      }
    }
  }

  private commit(args: CommitArgs): void {
    if (this.held) this.held.push(args);
    else this.commits.commit(args);
  }

  readonly inspect = (ev: InspectionEvent): void => {
    if (!this.enabled || ev.type !== '@xstate.snapshot') return;
    const ref = ev.actorRef as AnyActorRef;
    const systemId = (ref as { systemId?: string }).systemId;
    const isFleet = ref === this.fleetRef;
    const workerId = workerIdOfSystemId(systemId);
    if (!isFleet && workerId === null) return;
    const snap = ev.snapshot as { value?: unknown; status?: string; context?: unknown };
    const to = snap.status === 'error' ? 'error' : stagePath(snap.value);
    const from = this.lastValue.get(ref);
    this.lastValue.set(ref, to);
    const event = ev.event as { type: string } & Record<string, unknown>;
    const moved = from !== to;
    const journal: JournalEntry[] = [];
    const actorId = isFleet ? 'fleet' : `worker:${workerId}`;
    if (moved || !QUIET_EVENTS.has(event.type)) {
      journal.push({
        actorId,
        event: journalEvent(event),
        from: from === undefined ? null : from,
        to,
        at: this.o.clock.now(),
      });
    }
    // A repaint that moved the stall clock (a new fingerprint) is written at once: a deadline
    // must come back from a crash at its original time, not at one re-armed from a stale row.
    const timers = workerId === null ? '' : timerKey(ev.snapshot);
    if (!isFleet && journal.length === 0 && this.writtenTimers.get(workerId!) === timers) {
      // Only the reading changed: coalesce into one trailing write.
      const pending = this.pendingQuiet.get(workerId!);
      if (pending) pending.ref = ref;
      else this.pendingQuiet.set(workerId!, { ref, handle: this.o.clock.setTimeout(() => this.writeQuiet(workerId!), QUIET_WRITE_MS) });
      return;
    }
    if (workerId !== null) {
      this.cancelQuiet(workerId);
      this.writtenTimers.set(workerId, timers);
    }
    // The fleet's row is its own value and context, children left out (they have rows of their
    // own). Screen readings go to the workers directly, so the fleet only publishes a snapshot
    // when its registry changes (dispatch, forget, a worker ending or crashing).
    try {
      if (isFleet) {
        const json = fleetRowJson(ref.getPersistedSnapshot());
        if (json === this.lastFleetJson && journal.length === 0) return;
        this.lastFleetJson = json;
        this.commit({ fleetSnapshotJson: json, snapshotVersion: SNAPSHOT_VERSION, journal });
      } else {
        const json = workerRowJson(ref.getPersistedSnapshot());
        this.commit({ snapshots: { [workerId!]: json }, snapshotVersion: SNAPSHOT_VERSION, journal });
      }
    } catch (err) {
      this.o.log?.({ msg: 'persisting a transition failed', actorId, err: String(err) });
    }
  };

  private cancelQuiet(id: string): void {
    const pending = this.pendingQuiet.get(id);
    if (!pending) return;
    this.o.clock.clearTimeout(pending.handle);
    this.pendingQuiet.delete(id);
  }

  private writeQuiet(id: string): void {
    const pending = this.pendingQuiet.get(id);
    this.pendingQuiet.delete(id);
    if (!pending || !this.enabled) return;
    try {
      this.commit({ snapshots: { [id]: workerRowJson(pending.ref.getPersistedSnapshot()) }, snapshotVersion: SNAPSHOT_VERSION, journal: [] });
    } catch (err) {
      this.o.log?.({ msg: 'persisting a reading failed', actorId: `worker:${id}`, err: String(err) });
    }
  }

  /**
   * Write every live actor's current snapshot (shutdown), after whatever a locked or full
   * database still holds back; bounded, and what could not be written is logged by count.
   */
  async flush(fleet: AnyActorRef, workers: Record<string, AnyActorRef>, boundMs = 10_000): Promise<void> {
    for (const id of [...this.pendingQuiet.keys()]) this.cancelQuiet(id);
    const snapshots: Record<string, string> = {};
    for (const [id, ref] of Object.entries(workers)) snapshots[id] = workerRowJson(ref.getPersistedSnapshot());
    this.commits.commit({ fleetSnapshotJson: fleetRowJson(fleet.getPersistedSnapshot()), snapshots, snapshotVersion: SNAPSHOT_VERSION, journal: [] });
    const lost = await this.commits.settle(boundMs);
    if (lost.length > 0) this.o.log?.({ msg: 'the state database took no writes before shutdown; the newest transitions were not written', notWritten: lost.length, health: this.commits.state });
  }
}

/**
 * Commits written in one as they would have been one after another: the fleet row and each
 * worker's snapshot as the last of them left it, every journal row in its order.
 */
export function mergeCommits(list: readonly CommitArgs[]): CommitArgs {
  const out: CommitArgs = { snapshotVersion: list.at(-1)?.snapshotVersion ?? SNAPSHOT_VERSION, snapshots: {}, journal: [] };
  for (const c of list) {
    if (c.fleetSnapshotJson !== undefined) out.fleetSnapshotJson = c.fleetSnapshotJson;
    Object.assign(out.snapshots!, c.snapshots);
    out.journal.push(...c.journal);
  }
  return out;
}
