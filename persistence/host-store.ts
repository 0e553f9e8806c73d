/**
 * The hosts table (migration 7): one row per machine the fleet reaches over ssh, with the
 * facts its last check found. `local` is not a row: it is the daemon's own machine, always there.
 * project_hosts (migration 8): where each project's checkout is on a host, and which host its
 * workers go to when a dispatch names none.
 */
import Database from 'better-sqlite3';
import { COMMIT_BUSY_TIMEOUT_MS } from './commit-queue.ts';
import type { HostFact, HostRow, ProjectHost } from '../contract/methods/hosts.ts';

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
    placeProject: db.prepare(`INSERT INTO project_hosts (project, host, path, is_default) VALUES (?, ?, ?, 0)
      ON CONFLICT(project, host) DO UPDATE SET path = excluded.path`),
    remove: db.prepare('DELETE FROM hosts WHERE name = ?'),
    checked: db.prepare('UPDATE hosts SET facts_json = ?, state_dir = COALESCE(?, state_dir), checked_at = ? WHERE name = ?'),
    clearDefault: db.prepare('UPDATE project_hosts SET is_default = 0 WHERE project = ?'),
    setDefault: db.prepare('UPDATE project_hosts SET is_default = 1 WHERE project = ? AND host = ?'),
    projectHosts: db.prepare('SELECT host, path, is_default FROM project_hosts WHERE project = ? ORDER BY host'),
  };
  const projectHosts = (project: string): ProjectHost[] =>
    (q.projectHosts.all(project) as { host: string; path: string; is_default: number }[]).map((r) => ({ host: r.host, path: r.path, default: r.is_default === 1 }));
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
    /** The project's checkout on `host` is at `path`; with `makeDefault` its workers go there when a dispatch names no host. */
    placeProject(project: string, host: string, path: string, makeDefault: boolean): ProjectHost[] {
      db.transaction(() => {
        q.placeProject.run(project, host, path);
        if (makeDefault) {
          q.clearDefault.run(project);
          q.setDefault.run(project, host);
        }
      })();
      return projectHosts(project);
    },
    projectHosts,
    /** The host a project's workers go to when a dispatch names none (null: local). */
    defaultHost: (project: string): string | null => projectHosts(project).find((h) => h.default)?.host ?? null,
  };
}

export type HostStore = ReturnType<typeof createHostStore>;

/**
 * The hosts on their own connection to the fleet's SQLite file (as the work stores have theirs):
 * the fleet re-attaches far workers at start, before the work stores exist, and needs their hosts.
 */
export function openHostStore(dbPath: string): HostStore & { close(): void } {
  const db = new Database(dbPath, { timeout: COMMIT_BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${COMMIT_BUSY_TIMEOUT_MS}`);
  return {
    ...createHostStore(db),
    close() {
      if (db.open) db.close();
    },
  };
}
