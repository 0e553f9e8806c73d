/**
 * Where each deadline's absolute time is read from. The invoke that arms a deadline and the
 * guard that decides it read the SAME function of the context, so when the deadline actor fires
 * (never before its clock reaches `at`: io/time/long-timer.ts) the guard is true — unless the
 * time moved later meanwhile, and then the state arms it again (issue 21: a stall deadline fired
 * a millisecond early was spent by `event.at >= stallAt` and the stall was never reported).
 * Every time is absolute and in context, so a restore re-arms it where it was.
 */
import type { DeadlineName, WorkerContext } from './worker.types.ts';
import {
  STARTUP_SETTLE_MS, STARTING_UP_WAIT_MS, SETTLE_QUIET_MS, RESUBMIT_AFTER_MS, BRIEF_QUIET_MS, BRIEF_CONFIRM_MS, ESCAPE_SETTLE_MS, INTERRUPT_SETTLE_MS, CLEAR_SETTLE_MS,
} from './worker.constants.ts';

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

/**
 * The two guards every deadline is read with: `reached` (the DEADLINE for `name` at or after its
 * time in context: spend it) and `named` (the DEADLINE for `name` at all: met after `reached`, it
 * was early or its time moved on, and the state arms it again instead of spending it, issue 21).
 */
export const reached = (name: DeadlineName) => ({ type: 'deadlineReached' as const, params: { name } });
export const named = (name: DeadlineName) => ({ type: 'isDeadline' as const, params: { name } });

/**
 * The longest each deadline can lie ahead of the moment it was armed (null: not bounded here,
 * e.g. a stop's timeout, which the person chose). A restored deadline further ahead than this
 * was armed on a clock that has since been set back (a restart after the wall clock moved):
 * it is brought in to now + this, so a clock set back never pushes a deadline out by hours.
 */
export const DEADLINE_MAX_MS: Record<DeadlineName, (c: WorkerContext) => number | null> = {
  stall: (c) => c.stallMs,
  unclassified: (c) => c.unclassifiedMs,
  'startup-settle': () => STARTING_UP_WAIT_MS,
  'settle-quiet': () => SETTLE_QUIET_MS,
  resubmit: () => RESUBMIT_AFTER_MS,
  'brief-quiet': () => BRIEF_QUIET_MS,
  'brief-confirm': () => BRIEF_CONFIRM_MS,
  'escape-settle': () => ESCAPE_SETTLE_MS,
  'interrupt-settle': () => INTERRUPT_SETTLE_MS,
  'clear-settle': () => CLEAR_SETTLE_MS,
  stop: () => null,
};

/** The context field each deadline's time is kept in (settle-quiet is kept as the change time). */
const FIELD: Record<Exclude<DeadlineName, 'settle-quiet'>, keyof WorkerContext> = {
  stall: 'stallAt', unclassified: 'unclassifiedAt', 'startup-settle': 'startupSettleAt', resubmit: 'resubmitAt',
  'brief-quiet': 'briefQuietAt', 'brief-confirm': 'briefConfirmAt', 'escape-settle': 'escapeSettleAt',
  'interrupt-settle': 'interruptSettleAt', 'clear-settle': 'clearSettleAt', stop: 'stopAt',
};

/** A restored deadline re-checked against the new clock: never further ahead than it could have been armed. */
export function recheckedAt(name: DeadlineName, at: number, c: WorkerContext, now: number): number {
  const max = DEADLINE_MAX_MS[name](c);
  return max === null ? at : Math.min(at, now + max);
}

/** The context with every kept deadline re-checked (times in the past stay: they fire at once). */
export function recheckContext(c: WorkerContext, now: number): WorkerContext {
  const out: Record<string, unknown> = { ...c };
  for (const [name, field] of Object.entries(FIELD) as Array<[DeadlineName, keyof WorkerContext]>) {
    const at = c[field];
    if (typeof at === 'number') out[field] = recheckedAt(name, at, c, now);
  }
  if (typeof c.lastChangeAt === 'number') out.lastChangeAt = Math.min(c.lastChangeAt, now);
  return out as unknown as WorkerContext;
}
