/**
 * The WorkerView: what the daemon and the CLI see of a worker. Built from the intent (what we
 * asked for), the worker actor's snapshot (what the machine decided) and the pane's liveness.
 */
import type { AgentState, BlockedReason, PromptBoxKind } from '../io/screen/types.ts';
import type { BackendName } from '../io/terminal/types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { GateRejection, LandingFailure, LandingOutcome, LandingSummary, WorkerContext } from '../machines/worker.types.ts';
import { gateOfStage, type GateName } from './gates.ts';

export interface WorkerView {
  id: string;
  project: string;
  /** Machine phase path: 'running.blocked', 'settled.unconfirmed', 'done', 'parked', 'stopped', … */
  stage: string;
  state: AgentState;
  awaitingInput: boolean;
  blockedReason: BlockedReason | null;
  promptBox: string | null;
  promptBoxKind: PromptBoxKind | null;
  readable: boolean;
  /** true = process running, false = exited, null = could not tell (or no pane yet). */
  live: boolean | null;
  backend: BackendName;
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
  waitingOn: string | null;
  paneId: string | null;
  /** Why the worker failed, or what could not be told ('wait-failed'); null when nothing to say. */
  problem: string | null;
  /** The gate the worker waits at ('brief approval' | 'landing approval'), or null. */
  gate: GateName | null;
  /** The landing evidence the open (or approved) landing gate holds. */
  landing: LandingSummary | null;
  landed: LandingOutcome | null;
  rejection: GateRejection | null;
  landingFailure: LandingFailure | null;
}

/** {running: 'blocked'} → 'running.blocked'. */
export function stagePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const [key] = Object.keys(value);
    if (key === undefined) return '';
    const rest = stagePath((value as Record<string, unknown>)[key]);
    return rest ? `${key}.${rest}` : key;
  }
  return String(value);
}

export const FINAL_STAGES: ReadonlySet<string> = new Set(['stopped', 'gone', 'failed', 'lost', 'landed', 'rejected']);

export interface ViewParts {
  intent: WorkerIntent;
  stage: string;
  context: WorkerContext | null;
  live: boolean | null;
  updatedAt: number;
  problem?: string | null;
}

export function buildView({ intent, stage, context: c, live, updatedAt, problem }: ViewParts): WorkerView {
  const r = c?.reading ?? null;
  return {
    id: intent.id,
    project: intent.project,
    stage,
    state: r?.state ?? 'unknown',
    awaitingInput: r?.readable === true && r.awaitingInput,
    blockedReason: r?.blockedReason ?? null,
    promptBox: r?.promptBox ?? null,
    promptBoxKind: r?.promptBoxKind ?? null,
    readable: r?.readable ?? false,
    live: FINAL_STAGES.has(stage) ? false : live,
    backend: intent.backend,
    agent: intent.agent,
    worktree: intent.worktree,
    branch: intent.branch,
    base: intent.base,
    briefPath: intent.briefPath,
    reportPath: intent.reportPath,
    reportExists: c?.reportExists === true,
    lastActivity: r?.lastActivity ?? '',
    lastChangeAt: c?.lastChangeAt ?? null,
    stallAt: c?.stallAt ?? null,
    exitCode: c?.exitCode ?? null,
    updatedAt,
    waitingOn: c?.waitingOn ?? null,
    paneId: c?.paneId ?? null,
    problem: problem ?? c?.problem ?? null,
    gate: gateOfStage(stage),
    landing: c?.landing ?? null,
    landed: c?.landed ?? null,
    rejection: c?.rejection ?? null,
    landingFailure: c?.landingFailure ?? null,
  };
}
