/**
 * The side effects a worker needs, as injectable ports: the real ones touch git, the agent's
 * settings and the file system; tests pass fakes. The fleet host turns them into the actor
 * implementations the pure worker machine names (see actors/worker-logic.ts).
 */
import type { Key, TerminalHost } from '../io/terminal/types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { LaunchSpec } from '../io/agent/launch.ts';
import type { LandingOutcome, LandingSummary } from '../machines/worker.types.ts';

export interface WorkerPorts {
  /** Create the worktree and branch (idempotent: a restore may call it again). */
  prepareWorktree(intent: WorkerIntent, signal: AbortSignal): Promise<void>;
  /** Settings, folder trust, environment files for the agent in the worktree. */
  seedAgent(intent: WorkerIntent, signal: AbortSignal): Promise<void>;
  launchSpec(intent: WorkerIntent): LaunchSpec;
  /** `intent`: whose report (a far worker's is read back from its host into `path` first). */
  reportExists(path: string, intent?: WorkerIntent): Promise<boolean>;
  /** The report's parked pointer (an open decision); absent = never parked. */
  readReport?(path: string, intent?: WorkerIntent): Promise<{ waitingOn: string | null }>;
  /**
   * Guarded sends (io/terminal/guarded-send.ts): re-read the live box before typing. The machine
   * has already applied the same rule to its latest reading; this is the check at the glass.
   */
  /** `decision`: the text is that decision's answer (its `beforeEnter` marks it; fault holds see it). */
  sendText(host: TerminalHost, paneId: string, text: string, opts: { allowNonEmptyBox: boolean; label?: string; teardown?: boolean; beforeEnter?: () => Promise<void>; agent?: string; decision?: string }): Promise<void>;
  /** `agent`: the screen profile the glass check reads the box with (default Claude Code's). */
  sendKey(host: TerminalHost, paneId: string, key: Key, opts: { allowNonEmptyBox: boolean; agent?: string }): Promise<void>;
  /**
   * The first prompt's submission mark (io/brief/submission-mark.ts): written durably before
   * its Enter, asked by a restore so a prompt that went out is never typed again, cleared when a
   * new pane is made. Absent (test doubles): never marked.
   */
  markFirstPrompt?(intent: WorkerIntent, paneId: string): Promise<void>;
  firstPromptMarked?(intent: WorkerIntent, paneId: string): boolean;
  /** Both marks (the first prompt's and a decision's) go when a new pane is made. */
  clearSubmissionMarks?(intent: WorkerIntent): void;
  /**
   * A decision's answer, marked the same way (issue 43): written before its Enter and naming the
   * decision, asked when an answer is delivered again after a restart (actors/decision-resume.ts).
   */
  markDecision?(intent: WorkerIntent, paneId: string, key: string): Promise<void>;
  /** The decision whose answer was marked in this pane, or null. */
  decisionMarked?(intent: WorkerIntent, paneId: string): string | null;
}

/**
 * Landing, as the worker machine's `landing` states need it. The daemon implements it with the
 * io/git landing functions (daemon/gates/landing.ts); a daemon without it refuses to land.
 */
export interface LandingPort {
  /** Lands the approved branch per the project's posture; throws a typed refusal when it must not. */
  land(intent: WorkerIntent, approved: LandingSummary, signal: AbortSignal): Promise<Omit<LandingOutcome, 'at'>>;
  /** `git worktree remove` + prune after the agent left (never --force); a problem is reported, not thrown. */
  removeWorktree(intent: WorkerIntent): Promise<{ problem: string | null }>;
}

/** The injected clock (xstate-notes §1.7): deadlines are absolute times on it. */
export interface Clock {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The daemon's clock: the wall clock read once, at first use, then advanced by a monotonic
 * clock. Durations are therefore measured monotonically while the daemon lives — a wall clock
 * set back two hours under a hung worker left its stall deadline two hours away (issue 21) —
 * while the times it gives stay absolute (ms since epoch), so deadlines persist and are
 * re-checked by the next daemon (actors/recheck-deadlines.ts). Cost: a wall clock corrected
 * while the daemon runs shows in its times only after a restart.
 */
export function monotonicWallClock(wall: () => number = () => Date.now(), mono: () => number = () => performance.now()): Clock {
  let anchor: { wall: number; mono: number } | null = null;
  return {
    now: () => {
      anchor ??= { wall: wall(), mono: mono() };
      return anchor.wall + Math.round(mono() - anchor.mono);
    },
    setTimeout: (f, ms) => setTimeout(f, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

export const realClock: Clock = monotonicWallClock();
