/**
 * The persistence port: what the fleet host needs from storage. Implemented with
 * better-sqlite3 (persistence/sqlite-store.ts); tests of the actors may use an in-memory
 * implementation of the same interface.
 */

import type { BackendName, Posture } from '../contract/vocabulary.ts';

export type { Posture } from '../contract/vocabulary.ts';

export type { ProjectRecord } from '../contract/methods.ts';
import type { ProjectRecord } from '../contract/methods.ts';

export type { WorkerIntent } from '../contract/methods/fleet.ts';
import type { WorkerIntent } from '../contract/methods/fleet.ts';

export interface WorkerRow extends WorkerIntent {
  /** Persisted XState snapshot of the worker actor (JSON text), or null before the first write. */
  snapshotJson: string | null;
  /** Schema version the snapshot was written with. */
  snapshotVersion: number | null;
  updatedAt: number;
}

export interface JournalEntry {
  /** Actor the transition belongs to: 'fleet' or 'worker:<id>'. */
  actorId: string;
  /** The event that caused the transition (JSON-serialisable; never secrets). */
  event: unknown;
  /** State value before and after (JSON-serialisable). */
  from: unknown;
  to: unknown;
  at: number;
}

export interface StoredJournalEntry extends JournalEntry {
  seq: number;
}

export interface FleetStore {
  /** Schema version of the database after migrations. */
  readonly schemaVersion: number;
  upsertProject(project: ProjectRecord): void;
  getProject(nameOrRepo: string): ProjectRecord | null;
  listProjects(): ProjectRecord[];
  insertWorker(intent: WorkerIntent): void;
  getWorker(id: string): WorkerRow | null;
  listWorkers(): WorkerRow[];
  /** Every worker's repository by id, in one read: a status groups hundreds by it, and a row of getWorker carries its whole snapshot. */
  workerRepos(): Map<string, string>;
  deleteWorker(id: string): void;
  /** The tmux server (pid.start time) the worker's pane was made on: a restart never re-attaches to another server's pane of the same id. */
  setPaneServer?(id: string, server: string): void;
  /**
   * Writes snapshots and journal entries in ONE transaction: a crash leaves both or neither.
   * `snapshots` maps worker id -> snapshot JSON text; `fleetSnapshotJson` is the fleet's own row.
   */
  commit(args: {
    fleetSnapshotJson?: string;
    snapshots?: Record<string, string>;
    snapshotVersion: number;
    journal: JournalEntry[];
  }): void;
  /**
   * After the disk was full: fold the write-ahead log back into the database and truncate it, so
   * space freed by the person is not eaten again by the log's old frames. Best effort, never throws.
   */
  reclaimSpace?(): void;
  loadFleetSnapshot(): { json: string; version: number } | null;
  journal(opts?: { actorId?: string; afterSeq?: number; limit?: number }): StoredJournalEntry[];
  close(): void;
}
