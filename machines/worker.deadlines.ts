/**
 * Where each deadline's absolute time is read from. The invoke that arms a deadline and the
 * guard that decides it read the SAME function of the context, so when the deadline actor fires
 * (never before its clock reaches `at`: io/time/long-timer.ts) the guard is true — unless the
 * time moved later meanwhile, and then the state arms it again (issue 21: a stall deadline fired
 * a millisecond early was spent by `event.at >= stallAt` and the stall was never reported).
 * Every time is absolute and in context, so a restore re-arms it where it was.
 */
import type { DeadlineName, WorkerContext } from './worker.types.ts';
import { STARTUP_SETTLE_MS, SETTLE_QUIET_MS } from './worker.constants.ts';

export const DEADLINE_AT: Record<DeadlineName, (c: WorkerContext) => number> = {
  stall: (c) => c.stallAt ?? c.lastEventAt + c.stallMs,
  unclassified: (c) => c.unclassifiedAt ?? c.lastEventAt + c.unclassifiedMs,
  'startup-settle': (c) => c.startupSettleAt ?? c.lastEventAt + STARTUP_SETTLE_MS,
  // From the first idle screen after work, kept by repaints, moved by a changed screen.
  'settle-quiet': (c) => (c.lastChangeAt ?? c.lastEventAt) + SETTLE_QUIET_MS,
  resubmit: (c) => c.resubmitAt ?? c.lastEventAt,
  'brief-quiet': (c) => c.briefQuietAt ?? c.lastEventAt,
  'brief-confirm': (c) => c.briefConfirmAt ?? c.lastEventAt,
  'escape-settle': (c) => c.escapeSettleAt ?? c.lastEventAt,
  'interrupt-settle': (c) => c.interruptSettleAt ?? c.lastEventAt,
  'clear-settle': (c) => c.clearSettleAt ?? c.lastEventAt,
  stop: (c) => c.stopAt ?? c.lastEventAt,
};

/** The invoke that arms deadline `name` at its time in context. */
export const armDeadline = <N extends DeadlineName>(name: N) => ({
  src: 'deadline' as const,
  input: ({ context }: { context: WorkerContext }) => ({ at: DEADLINE_AT[name](context), name }),
});
