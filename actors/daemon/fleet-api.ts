/**
 * What the daemon needs from the fleet host (actors/fleet-host.ts implements it).
 * Kept as a narrow interface so handlers can be tested without terminals.
 */
import type { Key } from '../../io/terminal/types.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { GateRejection, LandingFailure, LandingOutcome, LandingSummary } from '../../machines/worker.types.ts';

export interface WorkerViewLike {
  id: string;
  project: string;
  stage: string;
  state: string;
  awaitingInput: boolean;
  blockedReason: string | null;
  promptBox: string | null;
  promptBoxKind?: string | null;
  readable: boolean;
  live: boolean | null;
  backend: string;
  agent: string;
  worktree: string;
  branch: string;
  base: string;
  briefPath: string;
  reportPath: string;
  reportExists: boolean;
  lastActivity: string;
  lastChangeAt: number | null;
  stallAt: number | null;
  exitCode: number | null;
  updatedAt: number;
  waitingOn?: string | null;
  problem?: string | null;
  /** The gate the worker waits at ('brief approval' | 'landing approval'), or null. */
  gate?: string | null;
  landing?: LandingSummary | null;
  landed?: LandingOutcome | null;
  rejection?: GateRejection | null;
  landingFailure?: LandingFailure | null;
}

export interface FleetHostApi {
  dispatch(req: { intent: WorkerIntent; stallMs: number; firstPrompt: string; briefGate?: boolean }): Promise<WorkerViewLike>;
  /** The gates (actors/gate-commands.ts): they are worker machine states. */
  approve(id: string): Promise<WorkerViewLike>;
  reject(id: string, reason: string): Promise<WorkerViewLike>;
  openLanding(id: string, landing: Omit<LandingSummary, 'approvedBy' | 'openedAt'>, opts: { yolo: boolean }): Promise<WorkerViewLike>;
  view(id: string): WorkerViewLike | null;
  views(): WorkerViewLike[];
  subscribe(listener: (view: WorkerViewLike) => void): () => void;
  send(id: string, text: string, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerViewLike>;
  key(id: string, key: Key, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerViewLike>;
  stop(id: string, opts?: { timeoutMs?: number }): Promise<{ view: WorkerViewLike; exitCode: number | null; paneReusable: boolean }>;
  readScreen(id: string, opts?: { scrollback?: number }): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  shutdown(): Promise<void>;
}
