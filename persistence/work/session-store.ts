/**
 * Schema version 10 (issue 41): each worker's agent session, proved to be its (the file and the
 * id of its current launch's conversation), and the usage ledger — what every session file spent
 * per model and day, as last read from it. The ledger holds absolute numbers per (file, model,
 * day), so reading a file again (after a restart) writes the same rows, never twice the cost. A
 * worker's rows are closed, not deleted, when its id is given to new work or discarded: its
 * project's day still counts them (a budget is what was spent, not what is still on the board).
 */
import type Database from 'better-sqlite3';
import { asInt, asText } from '../row-codec.ts';

export interface SessionRow {
  worker: string;
  agent: string;
  sessionId: string;
  file: string;
  launchedAt: number;
  recordedAt: number;
}

export interface LedgerCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  messages: number;
}

export interface LedgerRow extends LedgerCounts {
  model: string;
  day: string;
}

export function createSessionStore(db: Database.Database, now: () => number) {
  const s = {
    record: db.prepare(
      `INSERT INTO agent_sessions (worker, agent, session_id, file, launched_at, recorded_at) VALUES (@worker, @agent, @sessionId, @file, @launchedAt, @at)
       ON CONFLICT(worker) DO UPDATE SET agent = excluded.agent, session_id = excluded.session_id, file = excluded.file, launched_at = excluded.launched_at, recorded_at = excluded.recorded_at`,
    ),
    get: db.prepare('SELECT * FROM agent_sessions WHERE worker = ?'),
    clear: db.prepare('DELETE FROM agent_sessions WHERE worker = ?'),
    write: db.prepare(
      `INSERT INTO usage_ledger (session_file, model, day, worker, project, agent, input, output, cache_read, cache_write, cache_write_1h, messages, closed, updated_at)
       VALUES (@file, @model, @day, @worker, @project, @agent, @input, @output, @cacheRead, @cacheWrite, @cacheWrite1h, @messages, 0, @at)
       ON CONFLICT(session_file, model, day) DO UPDATE SET input = excluded.input, output = excluded.output, cache_read = excluded.cache_read, cache_write = excluded.cache_write,
         cache_write_1h = excluded.cache_write_1h, messages = excluded.messages, updated_at = excluded.updated_at,
         -- a file read again for the worker that owns it now (a resumed conversation) is that worker's again
         closed = CASE WHEN usage_ledger.worker = excluded.worker AND usage_ledger.project = excluded.project THEN usage_ledger.closed ELSE 0 END,
         worker = excluded.worker, project = excluded.project, agent = excluded.agent`,
    ),
    close: db.prepare('UPDATE usage_ledger SET closed = 1 WHERE worker = ? AND closed = 0'),
    ofWorker: db.prepare(
      `SELECT model, '' AS day, SUM(input) AS input, SUM(output) AS output, SUM(cache_read) AS cache_read, SUM(cache_write) AS cache_write, SUM(cache_write_1h) AS cache_write_1h, SUM(messages) AS messages
       FROM usage_ledger WHERE worker = ? AND closed = 0 GROUP BY model ORDER BY model`,
    ),
    openWorkers: db.prepare(
      `SELECT worker, model, SUM(input) AS input, SUM(output) AS output, SUM(cache_read) AS cache_read, SUM(cache_write) AS cache_write, SUM(cache_write_1h) AS cache_write_1h, SUM(messages) AS messages
       FROM usage_ledger WHERE closed = 0 GROUP BY worker, model ORDER BY worker, model`,
    ),
    byProjectDay: db.prepare(
      `SELECT project, day, model, SUM(input) AS input, SUM(output) AS output, SUM(cache_read) AS cache_read, SUM(cache_write) AS cache_write, SUM(cache_write_1h) AS cache_write_1h, SUM(messages) AS messages
       FROM usage_ledger WHERE day >= ? GROUP BY project, day, model ORDER BY day DESC, project, model`,
    ),
  };
  const counts = (r: Record<string, unknown>): LedgerCounts => ({
    input: asInt(r.input) ?? 0, output: asInt(r.output) ?? 0, cacheRead: asInt(r.cache_read) ?? 0, cacheWrite: asInt(r.cache_write) ?? 0, cacheWrite1h: asInt(r.cache_write_1h) ?? 0, messages: asInt(r.messages) ?? 0,
  });
  return {
    record(r: Omit<SessionRow, 'recordedAt'>): void {
      s.record.run({ ...r, at: now() });
    },
    sessionOf(worker: string): SessionRow | null {
      const r = s.get.get(worker) as Record<string, unknown> | undefined;
      if (!r) return null;
      return { worker, agent: asText(r.agent) ?? '', sessionId: asText(r.session_id) ?? '', file: asText(r.file) ?? '', launchedAt: asInt(r.launched_at) ?? 0, recordedAt: asInt(r.recorded_at) ?? 0 };
    },
    clearSession(worker: string): void {
      s.clear.run(worker);
    },
    /** One session file's rows as the tally has them now (absolute numbers), in one transaction. */
    writeUsage: db.transaction((who: { worker: string; project: string; agent: string; file: string }, rows: LedgerRow[]) => {
      const at = now();
      for (const r of rows) s.write.run({ ...who, ...r, at });
    }),
    /** Several files' rows in one transaction (the keeper's batch: one commit, not one a read). */
    writeUsageMany: db.transaction((batch: { who: { worker: string; project: string; agent: string; file: string }; rows: LedgerRow[] }[]) => {
      const at = now();
      for (const { who, rows } of batch) for (const r of rows) s.write.run({ ...who, ...r, at });
    }),
    /** The worker's id goes to new work (or is discarded): its rows stop being its own. */
    closeUsage(worker: string): void {
      s.close.run(worker);
    },
    workerUsage(worker: string): LedgerRow[] {
      return (s.ofWorker.all(worker) as Record<string, unknown>[]).map((r) => ({ model: asText(r.model) ?? 'unknown', day: '', ...counts(r) }));
    },
    /** Every worker's own rows, by model (one query for a whole status). */
    openUsage(): Map<string, LedgerRow[]> {
      const out = new Map<string, LedgerRow[]>();
      for (const r of s.openWorkers.all() as Record<string, unknown>[]) {
        const w = asText(r.worker) ?? '';
        out.set(w, [...(out.get(w) ?? []), { model: asText(r.model) ?? 'unknown', day: '', ...counts(r) }]);
      }
      return out;
    },
    /** Rows per project, day and model, from `sinceDay` (YYYY-MM-DD) on. */
    projectDays(sinceDay: string): (LedgerRow & { project: string })[] {
      return (s.byProjectDay.all(sinceDay) as Record<string, unknown>[]).map((r) => ({ project: asText(r.project) ?? '', model: asText(r.model) ?? 'unknown', day: asText(r.day) ?? '', ...counts(r) }));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
