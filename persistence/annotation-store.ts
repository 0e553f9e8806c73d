/**
 * The person's annotations on what they decide on (issue 40), in the fleet database (migration
 * 11): one row per note, on one worker's item (`R-001`, `F-003`, `C-001`, `Q-002`) or on the
 * worker as a whole (`general`). A row keeps what the item said when the note was written (a
 * file's F- number follows the diff, which moves on) and the worker's stage (a note on the brief
 * before approval is a revised brief; after, a steer). Taking one (the Hand acted on it) stamps it;
 * nothing is ever deleted.
 */
import Database from 'better-sqlite3';
import type { Migration } from './migrations.ts';
import { COMMIT_BUSY_TIMEOUT_MS } from './commit-queue.ts';
import type { AnnotatedPart } from '../contract/methods/annotations.ts';
import type { TakenAs } from '../contract/vocabulary.ts';

/** Version 11: 10 is the usage ledger's (issue 41), written alongside; the two touch no common table. */
export const ANNOTATIONS_MIGRATION: Migration = {
  version: 12,
  description: "annotations: the person's notes on a worker's review items (R-/F-/C-/Q- ids, or general), and when the Hand took each (issue 40)",
  up(db) {
    db.exec(`CREATE TABLE annotations (
      seq        INTEGER PRIMARY KEY AUTOINCREMENT,
      worker     TEXT NOT NULL,
      item       TEXT NOT NULL,
      item_text  TEXT,
      part       TEXT NOT NULL CHECK (part IN ('brief', 'landing', 'work')),
      stage      TEXT NOT NULL,
      text       TEXT NOT NULL,
      via        TEXT NOT NULL CHECK (via IN ('page', 'cli')),
      created_at INTEGER NOT NULL,
      taken_at   INTEGER,
      taken_as   TEXT CHECK (taken_as IS NULL OR taken_as IN ('revised-brief', 'steer', 'answered')),
      taken_note TEXT
    );
    CREATE INDEX annotations_by_worker ON annotations(worker, seq);`);
  },
};

export interface Annotation {
  n: number;
  worker: string;
  item: string;
  itemText: string | null;
  part: AnnotatedPart;
  stage: string;
  text: string;
  via: 'page' | 'cli';
  createdAt: number;
  taken: { at: number; as: TakenAs; note: string | null } | null;
}

interface Row {
  seq: number;
  worker: string;
  item: string;
  item_text: string | null;
  part: AnnotatedPart;
  stage: string;
  text: string;
  via: 'page' | 'cli';
  created_at: number;
  taken_at: number | null;
  taken_as: TakenAs | null;
  taken_note: string | null;
}

const fromRow = (r: Row): Annotation => ({
  n: r.seq,
  worker: r.worker,
  item: r.item,
  itemText: r.item_text,
  part: r.part,
  stage: r.stage,
  text: r.text,
  via: r.via,
  createdAt: r.created_at,
  taken: r.taken_at === null ? null : { at: r.taken_at, as: r.taken_as ?? 'answered', note: r.taken_note },
});

export function createAnnotationStore(db: Database.Database, now: () => number = Date.now) {
  const q = {
    add: db.prepare('INSERT INTO annotations (worker, item, item_text, part, stage, text, via, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    one: db.prepare('SELECT * FROM annotations WHERE seq = ?'),
    list: db.prepare(`SELECT * FROM annotations WHERE (@worker IS NULL OR worker = @worker) AND created_at >= @since AND (@all = 1 OR taken_at IS NULL) ORDER BY seq`),
    take: db.prepare('UPDATE annotations SET taken_at = ?, taken_as = ?, taken_note = ? WHERE seq = ? AND taken_at IS NULL'),
  };
  const get = (n: number): Annotation | null => {
    const r = q.one.get(n) as Row | undefined;
    return r ? fromRow(r) : null;
  };
  return {
    add(a: Omit<Annotation, 'n' | 'createdAt' | 'taken'>): Annotation {
      const seq = Number(q.add.run(a.worker, a.item, a.itemText, a.part, a.stage, a.text, a.via, now()).lastInsertRowid);
      return get(seq)!;
    },
    get,
    list(o: { worker?: string; sinceMs?: number; all?: boolean } = {}): Annotation[] {
      return (q.list.all({ worker: o.worker ?? null, since: o.sinceMs ?? 0, all: o.all ? 1 : 0 }) as Row[]).map(fromRow);
    },
    /** Stamps each not yet taken; one already taken keeps its first stamp. All or none: an unknown number takes nothing. */
    take: db.transaction((ns: number[], as: TakenAs, note: string | null): Annotation[] => {
      const at = now();
      for (const n of ns) q.take.run(at, as, note, n);
      return ns.map((n) => get(n)!);
    }),
  };
}

export type AnnotationStore = ReturnType<typeof createAnnotationStore>;

/** On its own connection to the fleet's SQLite file, as the host store is (the fleet store migrated it). */
export function openAnnotationStore(dbPath: string, now: () => number = Date.now): AnnotationStore & { close(): void } {
  const db = new Database(dbPath, { timeout: COMMIT_BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${COMMIT_BUSY_TIMEOUT_MS}`);
  return {
    ...createAnnotationStore(db, now),
    close() {
      if (db.open) db.close();
    },
  };
}
