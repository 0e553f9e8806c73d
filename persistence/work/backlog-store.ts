/**
 * The durable backlog (reference §3): work items with a slug id, a project, a title, an optional
 * brief, a state (queued → in-flight → done; reopen; drop), a hold (reason + kind) and dependency
 * edges. Every refusal is decided before anything is written; writes that touch two tables run in
 * one transaction.
 */
import { isPrototypeName, prototypeNameWhy } from '../../contract/plain-name.ts';
import type Database from 'better-sqlite3';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { badHoldKind } from '../../contract/refusals.ts';

export type { BacklogItem, ItemState } from '../../contract/methods.ts';
import type { BacklogItem, ItemState } from '../../contract/methods.ts';
import { HOLD_KINDS, type HoldKind } from '../../contract/vocabulary.ts';

export { HOLD_KINDS, type HoldKind };
/** Letters, digits, '.', '_', '-'; bare digits allowed (an ADO id), as in reference §3.3. */
export const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;


type Row = Record<string, unknown>;
const OPEN = "state IN ('queued', 'in-flight')";

export function checkItemId(id: string): string {
  if (isPrototypeName(id)) throw new UsageError('bad-item-id', `${prototypeNameWhy('item id', id)}.`, { id });
  if (!ITEM_ID.test(id)) throw new UsageError('bad-item-id', `item id ${JSON.stringify(id)} is not a slug: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`, { id });
  return id;
}

export function createBacklogStore(db: Database.Database, now: () => number = Date.now) {
  const s = {
    latest: db.prepare('SELECT * FROM backlog_items WHERE id = ? ORDER BY seq DESC LIMIT 1'),
    open: db.prepare(`SELECT * FROM backlog_items WHERE id = ? AND ${OPEN}`),
    all: db.prepare('SELECT * FROM backlog_items b WHERE seq = (SELECT MAX(seq) FROM backlog_items WHERE id = b.id) ORDER BY created_at, seq'),
    insert: db.prepare('INSERT INTO backlog_items (id, project, title, brief, state, created_at, updated_at) VALUES (?, ?, ?, ?, \'queued\', ?, ?)'),
    setState: db.prepare('UPDATE backlog_items SET state = ?, updated_at = ?, closed_at = ? WHERE seq = ?'),
    setHold: db.prepare('UPDATE backlog_items SET hold_reason = ?, hold_kind = ?, updated_at = ? WHERE seq = ?'),
    setWorker: db.prepare('UPDATE backlog_items SET worker = ?, updated_at = ? WHERE seq = ?'),
    setDone: db.prepare("UPDATE backlog_items SET state = 'done', pr = COALESCE(?, pr), note = COALESCE(?, note), updated_at = ?, closed_at = ? WHERE seq = ?"),
    edgesOf: db.prepare('SELECT blocked_by FROM backlog_edges WHERE item = ? ORDER BY created_at, blocked_by'),
    allEdges: db.prepare('SELECT item, blocked_by FROM backlog_edges'),
    addEdge: db.prepare('INSERT OR IGNORE INTO backlog_edges (item, blocked_by, created_at) VALUES (?, ?, ?)'),
    releaseBy: db.prepare('DELETE FROM backlog_edges WHERE blocked_by = ?'),
    byWorker: db.prepare(`SELECT * FROM backlog_items WHERE worker = ? ORDER BY seq DESC LIMIT 1`),
  };

  function rowToItem(r: Row, edges: Map<string, string[]>, states: Map<string, ItemState>): BacklogItem {
    const id = String(r.id);
    const blockedBy = edges.get(id) ?? [];
    return {
      id,
      project: String(r.project),
      title: String(r.title),
      brief: (r.brief as string | null) ?? null,
      state: r.state as ItemState,
      hold: r.hold_reason ? { reason: String(r.hold_reason), kind: r.hold_kind as HoldKind } : null,
      blockedBy,
      waitingOn: blockedBy.filter((b) => states.get(b) !== 'done'),
      worker: (r.worker as string | null) ?? null,
      pr: (r.pr as string | null) ?? null,
      note: (r.note as string | null) ?? null,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      closedAt: r.closed_at === null ? null : Number(r.closed_at),
    };
  }

  /** Every id's latest row, with edges resolved in memory (one pass; `ready` over 1,000 items stays cheap). */
  function list(): BacklogItem[] {
    const rows = s.all.all() as Row[];
    const edges = new Map<string, string[]>();
    for (const e of s.allEdges.all() as Row[]) {
      const list = edges.get(String(e.item)) ?? [];
      list.push(String(e.blocked_by));
      edges.set(String(e.item), list);
    }
    const states = new Map(rows.map((r) => [String(r.id), r.state as ItemState]));
    return rows.map((r) => rowToItem(r, edges, states));
  }

  function rowOf(id: string): Row {
    const r = s.latest.get(checkItemId(id)) as Row | undefined;
    if (!r) throw new RefusedError('unknown-item', `no backlog item ${JSON.stringify(id)}. \`hand backlog list\` lists them; \`hand backlog add ${id} --project <p> "<title>"\` adds it.`, { id });
    return r;
  }

  function get(id: string): BacklogItem {
    rowOf(id);
    return list().find((i) => i.id === id)!;
  }

  function openRow(id: string, verb: string): Row {
    const r = rowOf(id);
    if (r.state !== 'queued' && r.state !== 'in-flight') {
      throw new RefusedError('item-closed', `item ${id} is ${r.state}; it cannot be ${verb}. Reopen it first (hand backlog reopen ${id}).`, { id, state: r.state });
    }
    return r;
  }

  /** True when `from` is (transitively) blocked by `target`. */
  function dependsOn(from: string, target: string): boolean {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const cur = stack.pop()!;
      if (cur === target) return true;
      if (seen.has(cur)) continue;
      seen.add(cur);
      for (const e of s.edgesOf.all(cur) as Row[]) stack.push(String(e.blocked_by));
    }
    return false;
  }

  return {
    list,
    get,
    /** What can start now: queued, not held, every blocker done. */
    ready(): BacklogItem[] {
      return list().filter((i) => i.state === 'queued' && !i.hold && i.waitingOn.length === 0);
    },
    add(a: { id: string; project: string; title: string; brief?: string | null }): BacklogItem {
      checkItemId(a.id);
      if (!a.title.trim()) throw new UsageError('title-required', `item ${a.id} needs a title: hand backlog add ${a.id} --project <p> "<title>".`, { id: a.id });
      const open = s.open.get(a.id) as Row | undefined;
      if (open) throw new RefusedError('item-exists', `an open item ${a.id} already exists (${open.state}: ${open.title}); one open item per id. Pick another id or finish that one.`, { id: a.id });
      const t = now();
      s.insert.run(a.id, a.project, a.title.trim(), a.brief ?? null, t, t);
      return get(a.id);
    },
    start(id: string): BacklogItem {
      const r = openRow(id, 'started');
      s.setState.run('in-flight', now(), null, r.seq);
      return get(id);
    },
    hold(id: string, reason: string, kind: string): BacklogItem {
      if (!(HOLD_KINDS as readonly string[]).includes(kind)) throw badHoldKind(kind);
      if (!reason.trim()) throw new UsageError('reason-required', `a hold needs a reason: hand backlog hold ${id} --reason "<why>" --kind ${kind}.`, { id });
      const r = openRow(id, 'held');
      s.setHold.run(reason.trim(), kind, now(), r.seq);
      return get(id);
    },
    unhold(id: string): BacklogItem {
      const r = openRow(id, 'unheld');
      s.setHold.run(null, null, now(), r.seq);
      return get(id);
    },
    block(id: string, by: string): BacklogItem {
      openRow(id, 'blocked');
      rowOf(by);
      if (id === by || dependsOn(by, id)) {
        throw new RefusedError('dependency-cycle', `blocking ${id} by ${by} would make a cycle (${by} already waits on ${id}); nothing was changed.`, { id, by });
      }
      s.addEdge.run(id, by, now());
      return get(id);
    },
    /**
     * Done releases what it blocked (its edges go, as tasks-axi's `done` does), and its hold: a
     * finished item waits for nothing (a hold left attached read as still held; issue 38 item 6).
     */
    done: db.transaction((id: string, opts: { pr?: string | null; note?: string | null } = {}): BacklogItem => {
      const r = openRow(id, 'closed');
      const t = now();
      s.setDone.run(opts.pr ?? null, opts.note ?? null, t, t, r.seq);
      s.setHold.run(null, null, t, r.seq);
      s.releaseBy.run(id);
      return get(id);
    }),
    drop: db.transaction((id: string): BacklogItem => {
      const r = openRow(id, 'dropped');
      const t = now();
      s.setState.run('dropped', t, t, r.seq);
      s.setHold.run(null, null, t, r.seq);
      s.releaseBy.run(id);
      return get(id);
    }),
    reopen(id: string): BacklogItem {
      const r = rowOf(id);
      if (r.state === 'queued' || r.state === 'in-flight') throw new RefusedError('item-open', `item ${id} is already open (${r.state}).`, { id });
      s.setState.run('queued', now(), null, r.seq);
      return get(id);
    },
    /**
     * In flight → queued, the worker link cleared: its worker was rejected at the brief gate or
     * discarded, so the work is waiting again (and `dispatch --item` may take it).
     */
    requeue(id: string): BacklogItem {
      const r = rowOf(id);
      if (r.state !== 'in-flight') throw new RefusedError('item-not-in-flight', `item ${id} is ${r.state}, not in flight; nothing was changed.`, { id, state: r.state });
      const t = now();
      s.setState.run('queued', t, null, r.seq);
      s.setWorker.run(null, t, r.seq);
      return get(id);
    },
    linkWorker(id: string, worker: string): void {
      const r = openRow(id, 'dispatched');
      s.setWorker.run(worker, now(), r.seq);
    },
    itemOfWorker(worker: string): BacklogItem | null {
      const r = s.byWorker.get(worker) as Row | undefined;
      return r ? get(String(r.id)) : null;
    },
  };
}

export type BacklogStore = ReturnType<typeof createBacklogStore>;
