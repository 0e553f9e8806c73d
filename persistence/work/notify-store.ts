/**
 * Persisted notification state: the last condition notified per worker (one notification per
 * worker and condition until the condition changes, also across a restart) and one delivery row
 * per (event, target) — UNIQUE, so an event is queued once, and `delivered` is written the moment
 * a target acknowledged it, so a restart never sends it again.
 */
import type Database from 'better-sqlite3';

export interface Delivery {
  seq: number;
  eventKey: string;
  targetId: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: number;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

type Row = Record<string, unknown>;
function fromRow(r: Row): Delivery {
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(String(r.payload_json));
  } catch {
    payload = { damaged: true };
  }
  return {
    seq: Number(r.seq),
    eventKey: String(r.event_key),
    targetId: String(r.target_id),
    payload,
    state: r.state as Delivery['state'],
    attempts: Number(r.attempts),
    nextAt: Number(r.next_at),
    lastError: (r.last_error as string | null) ?? null,
    createdAt: Number(r.created_at),
    deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
  };
}

export function createNotifyStore(db: Database.Database, now: () => number = Date.now) {
  const s = {
    mark: db.prepare('SELECT * FROM notify_marks WHERE worker = ?'),
    setMark: db.prepare(`INSERT INTO notify_marks (worker, condition, episode, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT(worker) DO UPDATE SET condition = excluded.condition, episode = excluded.episode, updated_at = excluded.updated_at`),
    enqueue: db.prepare("INSERT OR IGNORE INTO notify_deliveries (event_key, target_id, payload_json, state, next_at, created_at) VALUES (?, ?, ?, 'pending', ?, ?)"),
    due: db.prepare("SELECT * FROM notify_deliveries WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, seq LIMIT 50"),
    nextDue: db.prepare("SELECT MIN(next_at) AS n FROM notify_deliveries WHERE state = 'pending'"),
    delivered: db.prepare("UPDATE notify_deliveries SET state = 'delivered', attempts = attempts + 1, delivered_at = ?, last_error = NULL WHERE seq = ? AND state = 'pending'"),
    retry: db.prepare("UPDATE notify_deliveries SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE seq = ? AND state = 'pending'"),
    fail: db.prepare("UPDATE notify_deliveries SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE seq = ? AND state = 'pending'"),
    recent: db.prepare('SELECT * FROM notify_deliveries ORDER BY seq DESC LIMIT ?'),
    problems: db.prepare("SELECT target_id, COUNT(*) AS n, MAX(last_error) AS err FROM notify_deliveries WHERE (state = 'failed' OR (state = 'pending' AND attempts > 0)) GROUP BY target_id"),
    dropTarget: db.prepare("UPDATE notify_deliveries SET state = 'failed', last_error = 'target removed' WHERE target_id = ? AND state = 'pending'"),
  };
  // Every published view asks for its worker's mark (a tenth of the daemon's busy time at ten
  // streaming workers went to this SELECT): the daemon is the only writer, so one read per worker.
  const marks = new Map<string, { condition: string | null; episode: number } | null>();
  return {
    mark(worker: string): { condition: string | null; episode: number } | null {
      const known = marks.get(worker);
      if (known !== undefined) return known;
      const r = s.mark.get(worker) as Row | undefined;
      const mark = r ? { condition: (r.condition as string | null) ?? null, episode: Number(r.episode) } : null;
      marks.set(worker, mark);
      return mark;
    },
    /** Remembered at once, so a locked or full database never repeats a notification in this process; written when it can be. */
    setMark(worker: string, condition: string | null, episode: number) {
      marks.set(worker, { condition, episode });
      s.setMark.run(worker, condition, episode, now());
    },
    /** Queues the event for each target in one transaction; returns how many rows were new. */
    enqueue: db.transaction((eventKey: string, targetIds: string[], payload: Record<string, unknown>): number => {
      let n = 0;
      for (const t of targetIds) n += s.enqueue.run(eventKey, t, JSON.stringify(payload), now(), now()).changes;
      return n;
    }),
    due: (at: number): Delivery[] => (s.due.all(at) as Row[]).map(fromRow),
    nextDue(): number | null {
      const r = s.nextDue.get() as { n: number | null };
      return r.n;
    },
    delivered: (seq: number) => s.delivered.run(now(), seq).changes > 0,
    retry: (seq: number, nextAt: number, error: string) => s.retry.run(nextAt, error, seq),
    fail: (seq: number, error: string) => s.fail.run(error, seq),
    recent: (limit = 50): Delivery[] => (s.recent.all(limit) as Row[]).map(fromRow),
    problems: (): { targetId: string; count: number; lastError: string | null }[] =>
      (s.problems.all() as Row[]).map((r) => ({ targetId: String(r.target_id), count: Number(r.n), lastError: (r.err as string | null) ?? null })),
    dropTarget: (id: string) => s.dropTarget.run(id),
  };
}

export type NotifyStore = ReturnType<typeof createNotifyStore>;
