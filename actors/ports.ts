/**
 * The ports the worker actors take besides the worker's own side effects (those are WorkerPorts,
 * io/ports/worker-ports.ts): landing, and the clock its deadlines are kept on.
 */
import type { WorkerIntent } from '../persistence/types.ts';
import type { LandingOutcome, LandingSummary } from '../machines/worker.types.ts';

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
