/**
 * Away mode and its journal (reference §7.3). The journal is append-only: there is no update or
 * delete statement here. Each entry carries the sha256 of its JSON body; a row whose body no
 * longer matches (edited, truncated, not JSON) is reported as damaged with its seq — its
 * content is never reconstructed or guessed.
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

export { JOURNAL_KINDS, type JournalKind, type JournalBody, type JournalRead } from '../../contract/methods/work.ts';
import { JOURNAL_KINDS, type JournalBody, type JournalRead } from '../../contract/methods/work.ts';



export interface AwayState {
  active: boolean;
  since: number | null;
  note: string | null;
  readSeq: number;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export function createAwayStore(db: Database.Database, now: () => number = Date.now) {
  const s = {
    get: db.prepare('SELECT * FROM away WHERE id = 1'),
    set: db.prepare(`INSERT INTO away (id, active, since, note, read_seq) VALUES (1, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET active = excluded.active, since = excluded.since, note = excluded.note, read_seq = excluded.read_seq`),
    append: db.prepare('INSERT INTO away_journal (at, body_json, checksum) VALUES (?, ?, ?)'),
    since: db.prepare('SELECT * FROM away_journal WHERE seq > ? AND at >= ? ORDER BY seq'),
    lastSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS s FROM away_journal'),
  };
  function state(): AwayState {
    const r = s.get.get() as Record<string, unknown> | undefined;
    if (!r) return { active: false, since: null, note: null, readSeq: 0 };
    return { active: r.active === 1, since: r.since === null ? null : Number(r.since), note: (r.note as string | null) ?? null, readSeq: Number(r.read_seq) };
  }
  function append(body: JournalBody): number {
    const json = JSON.stringify(body);
    return Number(s.append.run(now(), json, sha(json)).lastInsertRowid);
  }
  function read(opts: { afterSeq?: number; sinceAt?: number } = {}): JournalRead[] {
    return (s.since.all(opts.afterSeq ?? 0, opts.sinceAt ?? 0) as Record<string, unknown>[]).map((r) => {
      const seq = Number(r.seq);
      const at = Number(r.at);
      const json = typeof r.body_json === 'string' ? r.body_json : String(r.body_json);
      if (sha(json) !== r.checksum) return { seq, at, damaged: true, problem: 'entry does not match its checksum (changed or truncated after it was written)' };
      try {
        const body = JSON.parse(json) as JournalBody;
        if (!(JOURNAL_KINDS as readonly string[]).includes(body.kind) || typeof body.text !== 'string') return { seq, at, damaged: true, problem: `unknown kind ${JSON.stringify(body.kind)}` };
        return { seq, at, damaged: false, ...body };
      } catch (err) {
        return { seq, at, damaged: true, problem: `not JSON: ${(err as Error).message}` };
      }
    });
  }
  const lastSeq = () => Number((s.lastSeq.get() as { s: number }).s);
  return {
    state,
    append,
    read,
    lastSeq,
    /** Turning on again keeps the original `since` (a refresh, §7.3). */
    on: db.transaction((note: string | null): { state: AwayState; refreshed: boolean } => {
      const cur = state();
      if (cur.active) {
        s.set.run(1, cur.since, note ?? cur.note, cur.readSeq);
        return { state: state(), refreshed: true };
      }
      const seq = append({ kind: 'away-on', text: note ? `away: ${note}` : 'away' });
      // The account of this absence starts just before its own first entry.
      s.set.run(1, now(), note, seq - 1);
      return { state: state(), refreshed: false };
    }),
    off: db.transaction((): AwayState => {
      const cur = state();
      s.set.run(0, cur.since, cur.note, cur.readSeq);
      if (cur.active) {
        const seq = append({ kind: 'away-off', text: 'back' });
        // Coming back is not news: if everything before it was read, so is this.
        if (cur.readSeq >= seq - 1) s.set.run(0, cur.since, cur.note, seq);
      }
      return state();
    }),
    markRead(seq: number) {
      const cur = state();
      s.set.run(cur.active ? 1 : 0, cur.since, cur.note, Math.max(cur.readSeq, seq));
    },
  };
}

export type AwayStore = ReturnType<typeof createAwayStore>;
