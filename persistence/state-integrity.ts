/**
 * A state directory that knows what it held, so that a lost database is never read as an empty
 * fleet. Before, `: > fleet.db` (or a failed migration, a full disk, a stray `rm`) and the next
 * `hand status` answered "no workers" from a freshly created database: the fleet erased in
 * silence. Three things now stand against that:
 *
 * - a manifest, `<home>/fleet.manifest.json` (0600, written atomically: temp file + rename): the
 *   database's own id (migration 5), its schema version and how many workers and projects it
 *   held, rewritten whenever those change;
 * - an integrity check before the daemon opens the database: missing, empty, not SQLite, failing
 *   `PRAGMA quick_check`, or another database than the manifest names, while the directory holds
 *   a manifest, briefs or backups → refused, with the backup and the command that restores it;
 *   nothing is created, migrated or moved;
 * - rotating backups in `<home>/backups/` taken with SQLite's online backup API (consistent while
 *   the daemon writes), at start and every BACKUP_EVERY_MS, the newest KEEP_BACKUPS kept.
 * `hand daemon restore-db` (restoreDatabase) puts a backup back, moving the damaged files aside.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../contract/errors.ts';
import { HOME_ID_FILE, readHomeId } from './home-identity.ts';

export const MANIFEST_FILE = 'fleet.manifest.json';
export const BACKUP_DIR = 'backups';
export const KEEP_BACKUPS = 5;
export const BACKUP_EVERY_MS = 15 * 60_000;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export interface StatePaths {
  home: string;
  db: string;
}

export interface Manifest {
  dbId: string | null;
  schemaVersion: number;
  workers: number;
  projects: number;
  updatedAt: string;
}

export interface BackupInfo {
  path: string;
  takenAt: string;
  bytes: number;
}

export type DbCondition =
  | { state: 'ok'; dbId: string | null; workers: number; projects: number; homeId: string | null; homePath: string | null }
  | { state: 'missing' | 'empty' | 'malformed' | 'foreign'; detail: string };

export function readManifest(home: string): Manifest | null {
  try {
    const v = JSON.parse(readFileSync(join(home, MANIFEST_FILE), 'utf8')) as Partial<Manifest>;
    if (typeof v.workers !== 'number' || typeof v.schemaVersion !== 'number') return null;
    return { dbId: typeof v.dbId === 'string' ? v.dbId : null, schemaVersion: v.schemaVersion, workers: v.workers, projects: v.projects ?? 0, updatedAt: String(v.updatedAt ?? '') };
  } catch {
    return null;
  }
}

/** Temp file + rename: a reader sees the old manifest or the new one, never half of one. */
export function writeManifest(home: string, m: Omit<Manifest, 'updatedAt'>): void {
  const path = join(home, MANIFEST_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...m, updatedAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

export function listBackups(home: string): BackupInfo[] {
  const dir = join(home, BACKUP_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^fleet-\d{8}T\d{6}\d*Z\.db$/.test(n))
    .sort()
    .reverse()
    .map((n) => {
      const path = join(dir, n);
      const st = statSync(path);
      return { path, takenAt: st.mtime.toISOString(), bytes: st.size };
    });
}

function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(SQLITE_HEADER.length);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** What the database file is, read without creating or changing it (a missing file stays missing). */
export function inspectDatabase(dbPath: string): DbCondition {
  if (!existsSync(dbPath)) return { state: 'missing', detail: 'does not exist' };
  const size = statSync(dbPath).size;
  if (size === 0) return { state: 'empty', detail: 'is empty (0 bytes)' };
  if (!readHeader(dbPath).equals(SQLITE_HEADER)) return { state: 'malformed', detail: 'is not a SQLite database (its header is wrong)' };
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return { state: 'malformed', detail: `fails SQLite's quick_check (${String(check)})` };
    const has = (t: string) => db!.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) !== undefined;
    if (!has('workers') || !has('projects')) return { state: 'foreign', detail: 'holds no kingshand tables' };
    const identity = has('store_identity') ? ((db.prepare('SELECT * FROM store_identity WHERE id = 1').get() as { db_id?: string; home_id?: string | null; home_path?: string | null } | undefined) ?? {}) : {};
    const count = (t: string) => (db!.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    return { state: 'ok', dbId: identity.db_id ?? null, workers: count('workers'), projects: count('projects'), homeId: identity.home_id ?? null, homePath: identity.home_path ?? null };
  } catch (err) {
    return { state: 'malformed', detail: `cannot be read as a database (${(err as Error).message})` };
  } finally {
    db?.close();
  }
}

/** What the state directory shows it held, besides the database. */
export function evidenceOfState(home: string): { manifest: Manifest | null; briefs: number; backups: BackupInfo[] } {
  let briefs = 0;
  try {
    briefs = readdirSync(join(home, 'workers')).length;
  } catch {
    briefs = 0;
  }
  return { manifest: readManifest(home), briefs, backups: listBackups(home) };
}

function heldText(e: ReturnType<typeof evidenceOfState>): string {
  const parts: string[] = [];
  if (e.manifest) parts.push(`${e.manifest.workers} worker(s) and ${e.manifest.projects} project(s) by its manifest (${MANIFEST_FILE}, ${e.manifest.updatedAt})`);
  if (e.briefs) parts.push(`the briefs of ${e.briefs} worker(s) in workers/`);
  if (e.backups.length) parts.push(`${e.backups.length} database backup(s)`);
  return parts.join(', ');
}

/** The one sentence every refusal ends with: what to run, and which backup it would use. */
export function restoreHint(home: string): string {
  const newest = listBackups(home)[0];
  if (!newest) return `No backup exists in ${join(home, BACKUP_DIR)}. If you have a copy of this directory's own database, \`hand daemon restore-db --home ${home} --from <file>\` puts it back; or move ${home} aside to start an empty fleet (its worktrees and tmux panes are not touched).`;
  return `Restore the newest backup (${newest.path}, taken ${newest.takenAt}) with \`hand daemon restore-db --home ${home}\` (the damaged files are moved aside, never deleted), or move ${home} aside to start an empty fleet.`;
}

/**
 * Refuses (RefusedError 'state-db-lost') when the database is missing, empty, malformed or not
 * the one the manifest names while the directory shows it held a fleet; and ('state-db-foreign')
 * when it is another state directory's database (home-identity.ts). Touches nothing.
 */
export function checkStateBeforeOpen(p: StatePaths): DbCondition {
  const found = inspectDatabase(p.db);
  const evidence = evidenceOfState(p.home);
  const held = heldText(evidence);
  const refuse = (what: string, code = 'state-db-lost'): never => {
    throw new RefusedError(
      code,
      `refused to start: the state database ${p.db} ${what}, but this state directory held ${held || 'nothing yet'}. Nothing was changed. ${restoreHint(p.home)}`,
      { path: p.db, found: found.state, manifest: evidence.manifest, briefs: evidence.briefs, backups: evidence.backups.map((b) => b.path), ...(found.state === 'ok' && { from: found.homePath }) },
    );
  };
  if (found.state === 'ok') {
    const stranger = foreignTo(p.home, found, evidence.manifest, Boolean(held));
    if (stranger) refuse(stranger, 'state-db-foreign');
    return found;
  }
  if (found.state === 'missing' && !held) return found; // a first start
  if (found.state === 'malformed' || found.state === 'foreign' || held) refuse(found.detail);
  return found;
}

/**
 * Why an intact kingshand database is not this directory's (the words for the refusal), or
 * null. It names another directory's identity; or it names none (a database from before
 * migration 10, or one stripped of it) and is not the one the manifest names.
 */
function foreignTo(home: string, found: Extract<DbCondition, { state: 'ok' }>, m: Manifest | null, held: boolean): string | null {
  const homeId = readHomeId(home);
  const from = found.homePath ? ` (last opened as ${found.homePath})` : '';
  if (found.homeId !== null) {
    if (homeId !== null && found.homeId !== homeId) return `is the database of another state directory${from}: it records state directory ${found.homeId}, this one is ${homeId} (${HOME_ID_FILE}); it holds ${found.workers} worker(s) and ${found.projects} project(s)`;
    // This directory lost its home.id: a database that was opened here is still ours.
    if (homeId === null && held && found.homePath !== home) return `is the database of another state directory${from}, and this directory's ${HOME_ID_FILE} is missing`;
    return null;
  }
  if (m?.dbId && found.dbId !== m.dbId && (m.workers > 0 || m.projects > 0)) return `is another database than the one this directory recorded (id ${found.dbId ?? 'none'}, expected ${m.dbId}; it holds ${found.workers} worker(s))`;
  return null;
}

function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.(\d+)Z$/, '$1Z');
}

/** One consistent copy of the live database (online backup API), then the oldest beyond KEEP_BACKUPS removed. */
export async function takeBackup(p: StatePaths, keep = KEEP_BACKUPS): Promise<BackupInfo> {
  const dir = join(p.home, BACKUP_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dest = join(dir, `fleet-${stamp()}.db`);
  const db = new Database(p.db, { fileMustExist: true });
  try {
    await db.backup(dest);
  } finally {
    db.close();
  }
  chmodSync(dest, 0o600);
  for (const old of listBackups(p.home).slice(keep)) rmSync(old.path, { force: true });
  const st = statSync(dest);
  return { path: dest, takenAt: st.mtime.toISOString(), bytes: st.size };
}

export interface RestoreResult {
  restoredFrom: string;
  db: string;
  movedAside: string[];
  workers: number;
  projects: number;
}

/**
 * Puts a backup back as the state database. The caller holds the home lock (no daemon runs).
 * The backup is checked first; the current files (db, -wal, -shm) are renamed aside, never
 * deleted; the manifest is rewritten from the restored database.
 */
export function restoreDatabase(p: StatePaths, from?: string): RestoreResult {
  const backup = from ?? listBackups(p.home)[0]?.path;
  if (!backup) {
    throw new RefusedError('no-backup', `no backup to restore: ${join(p.home, BACKUP_DIR)} holds none. Pass --from <file> to restore a copy you have.`, { home: p.home });
  }
  // Checked on a private copy: opening the backup itself could leave -wal/-shm beside it.
  const staged = `${p.db}.restoring-${process.pid}`;
  copyFileSync(backup, staged);
  chmodSync(staged, 0o600);
  const checked = inspectDatabase(staged);
  if (checked.state !== 'ok') {
    rmSync(staged, { force: true });
    rmSync(`${staged}-wal`, { force: true });
    rmSync(`${staged}-shm`, { force: true });
    throw new RefusedError('backup-unusable', `the backup ${backup} ${checked.state === 'missing' ? 'does not exist' : checked.detail}; nothing was changed. Pass --from <file> to restore another.`, { backup });
  }
  // A backup of another state directory is that directory's fleet, not this one's.
  const homeId = readHomeId(p.home);
  const manifest = readManifest(p.home);
  const stranger = checked.homeId !== null ? homeId !== null && checked.homeId !== homeId : Boolean(manifest?.dbId && checked.dbId !== manifest.dbId);
  if (stranger) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(staged + suffix, { force: true });
    throw new RefusedError(
      'backup-foreign',
      `the backup ${backup} is the database of another state directory${checked.homePath ? ` (${checked.homePath})` : ''}, not of ${p.home}; nothing was changed. Restore one of this directory's own backups (hand daemon restore-db --home ${p.home} takes the newest in ${join(p.home, BACKUP_DIR)}), or run that fleet from its own state directory.`,
      { backup, home: p.home, from: checked.homePath },
    );
  }
  const aside = `${p.db}.damaged-${stamp()}`;
  const movedAside: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(p.db + suffix)) {
      renameSync(p.db + suffix, aside + suffix);
      movedAside.push(aside + suffix);
    }
  }
  for (const suffix of ['-wal', '-shm']) rmSync(staged + suffix, { force: true });
  renameSync(staged, p.db);
  writeManifest(p.home, { dbId: checked.dbId, schemaVersion: schemaVersionOf(p.db), workers: checked.workers, projects: checked.projects });
  return { restoredFrom: backup, db: p.db, movedAside, workers: checked.workers, projects: checked.projects };
}

function schemaVersionOf(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null }).v ?? 0;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}
