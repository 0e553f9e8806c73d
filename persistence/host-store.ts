/**
 * The hosts table (migration 7): one row per machine the fleet reaches over ssh, with the
 * facts its last check found. `local` is not a row: it is the daemon's own machine, always there.
 */
import type Database from 'better-sqlite3';
import type { HostFact, HostRow } from '../contract/methods/hosts.ts';

interface Row {
  name: string;
  user: string;
  address: string;
  port: number;
  identity: string | null;
  state_dir: string | null;
  facts_json: string;
  checked_at: number | null;
}

export interface HostRecord { name: string; user: string; address: string; port: number; identity: string | null }

function toRow(r: Row): HostRow {
  let facts: HostFact[] = [];
  try {
    const parsed: unknown = JSON.parse(r.facts_json);
    if (Array.isArray(parsed)) facts = parsed as HostFact[];
  } catch {
    facts = [{ what: 'record', answer: 'could-not-tell', detail: 'the stored facts are damaged', fix: `hand host check ${r.name}` }];
  }
  return {
    name: r.name,
    user: r.user,
    address: r.address,
    port: r.port,
    identity: r.identity,
    stateDir: r.state_dir,
    checkedAt: r.checked_at === null ? null : new Date(r.checked_at).toISOString(),
    facts,
  };
}

export const LOCAL_HOST: HostRow = { name: 'local', user: null, address: null, port: null, identity: null, stateDir: null, checkedAt: null, facts: [] };

export function createHostStore(db: Database.Database, now: () => number = Date.now) {
  const q = {
    add: db.prepare('INSERT INTO hosts (name, user, address, port, identity, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    all: db.prepare('SELECT * FROM hosts ORDER BY name'),
    one: db.prepare('SELECT * FROM hosts WHERE name = ?'),
    remove: db.prepare('DELETE FROM hosts WHERE name = ?'),
    checked: db.prepare('UPDATE hosts SET facts_json = ?, state_dir = COALESCE(?, state_dir), checked_at = ? WHERE name = ?'),
  };
  return {
    /** false when the name is taken. */
    add(h: HostRecord): boolean {
      if (q.one.get(h.name) !== undefined) return false;
      q.add.run(h.name, h.user, h.address, h.port, h.identity, now());
      return true;
    },
    exists: (name: string) => q.one.get(name) !== undefined,
    list: (): HostRow[] => (q.all.all() as Row[]).map(toRow),
    get: (name: string): HostRow | null => {
      const r = q.one.get(name) as Row | undefined;
      return r ? toRow(r) : null;
    },
    remove: (name: string): boolean => q.remove.run(name).changes === 1,
    recordCheck(name: string, facts: HostFact[], stateDir: string | null): void {
      q.checked.run(JSON.stringify(facts), stateDir, now(), name);
    },
  };
}

export type HostStore = ReturnType<typeof createHostStore>;
