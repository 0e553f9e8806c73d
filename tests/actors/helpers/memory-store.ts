/** An in-memory FleetStore with the same contract as the SQLite one (commit is all-or-nothing). */
import type { FleetStore, JournalEntry, ProjectRecord, StoredJournalEntry, WorkerIntent, WorkerRow } from '../../../persistence/types.ts';

export class MemoryStore implements FleetStore {
  readonly schemaVersion = 1;
  projects = new Map<string, ProjectRecord>();
  workers = new Map<string, WorkerRow>();
  fleet: { json: string; version: number } | null = null;
  entries: StoredJournalEntry[] = [];
  commits = 0;

  upsertProject(p: ProjectRecord): void { this.projects.set(p.name, p); }
  getProject(n: string): ProjectRecord | null { return this.projects.get(n) ?? [...this.projects.values()].find((p) => p.repo === n) ?? null; }
  listProjects(): ProjectRecord[] { return [...this.projects.values()]; }
  insertWorker(intent: WorkerIntent): void {
    if (this.workers.has(intent.id)) throw new Error(`worker ${intent.id} exists`);
    this.workers.set(intent.id, { ...intent, snapshotJson: null, snapshotVersion: null, updatedAt: intent.createdAt });
  }
  getWorker(id: string): WorkerRow | null { return this.workers.get(id) ?? null; }
  listWorkers(): WorkerRow[] { return [...this.workers.values()].map((w) => ({ ...w })); }
  workerRepos(): Map<string, string> { return new Map([...this.workers.values()].map((w) => [w.id, w.repo])); }
  deleteWorker(id: string): void { this.workers.delete(id); }
  commit(args: { fleetSnapshotJson?: string; snapshots?: Record<string, string>; snapshotVersion: number; journal: JournalEntry[] }): void {
    for (const id of Object.keys(args.snapshots ?? {})) if (!this.workers.has(id)) throw new Error(`commit for unknown worker ${id}`);
    this.commits++;
    if (args.fleetSnapshotJson !== undefined) this.fleet = { json: args.fleetSnapshotJson, version: args.snapshotVersion };
    for (const [id, json] of Object.entries(args.snapshots ?? {})) {
      const w = this.workers.get(id)!;
      this.workers.set(id, { ...w, snapshotJson: json, snapshotVersion: args.snapshotVersion, updatedAt: Date.now() });
    }
    for (const e of args.journal) this.entries.push({ ...e, seq: this.entries.length + 1 });
  }
  loadFleetSnapshot(): { json: string; version: number } | null { return this.fleet; }
  journal(opts: { actorId?: string; afterSeq?: number; limit?: number } = {}): StoredJournalEntry[] {
    return this.entries
      .filter((e) => (opts.actorId ? e.actorId === opts.actorId : true) && e.seq > (opts.afterSeq ?? 0))
      .slice(0, opts.limit ?? Infinity);
  }
  close(): void {}
}
