/**
 * Held decisions (reference §3.5, §7.6): a question a parked worker left for the person. The key
 * is stable (worker id + question), so a restart or a second look at the same report finds the
 * same record instead of opening a twin. A record is never deleted: the worker keeps pointing at
 * it (§3.6: null only ever means "never parked").
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { RefusedError } from '../../contract/errors.ts';

export type { Decision, DecisionState } from '../../contract/methods.ts';
import type { Decision, DecisionState } from '../../contract/methods.ts';


/** `<worker>-<question slug>-<6 hex>`: readable, slug-shaped, and stable for the same worker and question. */
export function decisionKey(worker: string, question: string): string {
  const norm = question.trim().replace(/\s+/g, ' ');
  const slug = norm.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/g, '');
  const hash = createHash('sha256').update(`${worker}\n${norm}`).digest('hex').slice(0, 6);
  return [worker, slug || 'decision', hash].join('-');
}

type Row = Record<string, unknown>;

function fromRow(r: Row): Decision {
  let options: string[] = [];
  try {
    const parsed = JSON.parse(String(r.options_json));
    if (Array.isArray(parsed)) options = parsed.map(String);
  } catch {
    options = [];
  }
  return {
    key: String(r.key),
    worker: String(r.worker),
    project: (r.project as string | null) ?? null,
    question: String(r.question),
    options,
    openedAt: Number(r.opened_at),
    state: r.state as DecisionState,
    answer: (r.answer as string | null) ?? null,
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
    delivery: (r.delivery as Decision['delivery']) ?? null,
    deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
    recovery: (r.recovery as Decision['recovery'] | undefined) ?? null,
  };
}

export function createDecisionStore(db: Database.Database, now: () => number = Date.now) {
  const s = {
    insert: db.prepare("INSERT OR IGNORE INTO decisions (key, worker, project, question, options_json, opened_at, state) VALUES (?, ?, ?, ?, ?, ?, 'open')"),
    get: db.prepare('SELECT * FROM decisions WHERE key = ?'),
    open: db.prepare("SELECT * FROM decisions WHERE state = 'open' ORDER BY opened_at, key"),
    all: db.prepare('SELECT * FROM decisions ORDER BY opened_at, key'),
    openOf: db.prepare("SELECT * FROM decisions WHERE worker = ? AND state = 'open' ORDER BY opened_at, key"),
    latestOf: db.prepare('SELECT * FROM decisions WHERE worker = ? ORDER BY opened_at DESC, key DESC LIMIT 1'),
    pendingOf: db.prepare("SELECT * FROM decisions WHERE worker = ? AND delivery = 'pending' ORDER BY closed_at"),
    close: db.prepare("UPDATE decisions SET state = ?, answer = ?, closed_at = ?, delivery = ? WHERE key = ? AND state = 'open'"),
    delivered: db.prepare("UPDATE decisions SET delivery = 'sent', delivered_at = ?, recovery = coalesce(?, recovery) WHERE key = ? AND delivery = 'pending'"),
    recovered: db.prepare("UPDATE decisions SET recovery = ? WHERE key = ? AND delivery = 'pending'"),
  };
  const get = (key: string): Decision | null => {
    const r = s.get.get(key) as Row | undefined;
    return r ? fromRow(r) : null;
  };
  return {
    get,
    /** Opens the record for a parked worker; the same worker and question find the existing one. */
    ensure(a: { worker: string; project: string | null; question: string; options: string[] }): { decision: Decision; created: boolean } {
      const key = decisionKey(a.worker, a.question);
      const res = s.insert.run(key, a.worker, a.project, a.question.trim(), JSON.stringify(a.options), now());
      return { decision: get(key)!, created: res.changes > 0 };
    },
    open: (): Decision[] => (s.open.all() as Row[]).map(fromRow),
    all: (): Decision[] => (s.all.all() as Row[]).map(fromRow),
    openOf: (worker: string): Decision[] => (s.openOf.all(worker) as Row[]).map(fromRow),
    /** The worker's pointer: its latest decision, answered or not. */
    latestOf: (worker: string): Decision | null => {
      const r = s.latestOf.get(worker) as Row | undefined;
      return r ? fromRow(r) : null;
    },
    pendingOf: (worker: string): Decision[] => (s.pendingOf.all(worker) as Row[]).map(fromRow),
    requireOpen(key: string): Decision {
      const d = get(key);
      if (!d) throw new RefusedError('unknown-decision', `no decision ${JSON.stringify(key)}. \`hand decisions\` lists the open ones.`, { key });
      if (d.state !== 'open') throw new RefusedError('decision-closed', `decision ${key} is already ${d.state}${d.answer ? ` (${JSON.stringify(d.answer)})` : ''}; nothing was changed.`, { key, state: d.state });
      return d;
    },
    answer(key: string, answer: string): Decision {
      s.close.run('answered', answer, now(), 'pending', key);
      return get(key)!;
    },
    decline(key: string, why: string): Decision {
      s.close.run('declined', why, now(), null, key);
      return get(key)!;
    },
    /** `recovery`: how a delivery after a restart found the answer (null keeps what was noted, e.g. a roll-back). */
    markDelivered(key: string, recovery: Decision['recovery'] = null): Decision {
      s.delivered.run(now(), recovery, key);
      return get(key)!;
    },
    /** An answer typed by an earlier daemon and cleared, not yet typed again: said while it is still pending. */
    noteRolledBack(key: string): Decision {
      s.recovered.run('rolled-back', key);
      return get(key)!;
    },
  };
}

export type DecisionStore = ReturnType<typeof createDecisionStore>;
