/**
 * The fault suite's catalogue, generated from the worker machine: every leaf state of
 * machines/worker.machine.ts is listed, and each has either a recipe that puts a real worker
 * there (the mock agent's brief triggers, a project's gate, a fault hold for a state that waits
 * on a port) or a reason why it is skipped. A state added to the machine without either fails the
 * suite's first test, so a new state is never silently left out.
 */
import { workerMachine } from '../../machines/worker.machine.ts';
import type { HoldableState } from '../../actors/daemon/fault-holds.ts';

export interface Recipe {
  /** The gated project (brief gate) or the yolo one. */
  project: 'yolo' | 'gated';
  /** Brief task text (the mock's scenario triggers). */
  task: string;
  stall?: string;
  hold?: HoldableState;
  /** After reaching `reach`, stop the worker (the `stopped` state). */
  thenStop?: boolean;
  /**
   * At work for the whole run (MODE:hang under the default 20 m stall): it never shows a
   * condition `hand wait` wakes for, so after a restart it has resumed once it is seen at work on
   * its re-attached pane, not once it rests (fault-world.ts `quiesce`).
   */
  atWork?: boolean;
  /** The stage the worker is seen in (from the daemon's pushed views) before the fault. */
  reach: (stage: string) => boolean;
}

export type Entry = { recipe: Recipe } | { skip: string };

/** Every leaf state path of the worker machine, in definition order. */
export function workerStatePaths(): string[] {
  const out: string[] = [];
  const walk = (node: { states?: Record<string, unknown> }, path: string[]) => {
    const keys = Object.keys(node.states ?? {});
    if (keys.length === 0) out.push(path.join('.'));
    for (const k of keys) walk((node.states as Record<string, { states?: Record<string, unknown> }>)[k]!, [...path, k]);
  };
  walk(workerMachine.root as unknown as { states?: Record<string, unknown> }, []);
  return out;
}

const at = (stage: string) => (s: string) => s === stage;
const HOLD = (hold: HoldableState): Entry => ({ recipe: { project: 'yolo', task: 'work', hold, reach: at(hold) } });
const NO_PORT = 'entered and left on screen readings alone, with no port to hold it; the fault holds on either side bracket it';
const BRIEF_DETOUR = 'entered only when the agent loses or delays the first Enter in a particular way; no port holds it (tests/actors/first-prompt-submission.test.ts restores it under a simulated clock)';
const TEARDOWN_STEP = 'teardown step (see teardown.begin)';

export const CATALOGUE: Record<string, Entry> = {
  admission: { skip: 'decided in the dispatch call itself (no port, no wait): a worker is never persisted resting there' },
  'gate.awaitingBriefApproval': { recipe: { project: 'gated', task: 'work', reach: at('gate.awaitingBriefApproval') } },
  preparing: HOLD('preparing'),
  seeding: HOLD('seeding'),
  spawning: HOLD('spawning'),
  'starting.waiting': { skip: NO_PORT },
  'starting.stalled': { skip: 'needs a start screen unchanged for the whole stall time; the mock reaches its box at once (tests/actors/starting-never-waits-forever.test.ts)' },
  'starting.occupied': { skip: 'needs text typed into the pane during start-up; the mock never does (tests/actors/starting-never-waits-forever.test.ts)' },
  'starting.boxHeld': { skip: 'follows starting.occupied (see it)' },
  'starting.blocked': { skip: 'needs a start-up dialog; dispatch always seeds folder trust, so the mock never shows one' },
  'starting.settling': { skip: NO_PORT },
  'briefing.sending': HOLD('briefing.sending'),
  'briefing.confirming': { skip: BRIEF_DETOUR },
  'briefing.quieting': { skip: BRIEF_DETOUR },
  'briefing.unsubmitted': { skip: BRIEF_DETOUR },
  'briefing.resubmitting': { skip: BRIEF_DETOUR },
  'briefing.blocked': { skip: BRIEF_DETOUR },
  'running.working': { recipe: { project: 'yolo', task: 'MODE:hang long job', atWork: true, reach: at('running.working') } },
  'running.blocked': { recipe: { project: 'yolo', task: 'MODE:ask pick one', reach: at('running.blocked') } },
  'running.stalled': { recipe: { project: 'yolo', task: 'MODE:hang long job', stall: '3s', reach: at('running.stalled') } },
  'running.finishing': { skip: NO_PORT },
  'running.agentError': { skip: 'needs an API error after retries; the mock draws no error screen (tests/actors/a-turn-that-ended-in-an-api-error-is-agent-error.test.ts)' },
  'running.unsure': { skip: 'needs a readable screen no rule can classify; the mock draws only screens the reader knows (the bound itself is tests/actors/could-not-tell-wakes-a-person.test.ts)' },
  'running.unclassified': { skip: 'follows running.unsure after its bound (see running.unsure)' },
  'running.blind': { skip: 'needs an unreadable screen; the mock always draws a readable one at the fixed pane size' },
  'settled.checking': { skip: 'one report-file check, milliseconds long' },
  'settled.unconfirmed': { recipe: { project: 'yolo', task: 'work', reach: at('settled.unconfirmed') } },
  reporting: { skip: 'one report read, milliseconds long' },
  done: { recipe: { project: 'yolo', task: 'MODE:report', reach: at('done') } },
  'landing.awaitingApproval': { skip: 'needs a worker commit to land; a landing gate across a restart is tests/actors/gates-survive-a-restart.test.ts' },
  'landing.applying': { skip: 'needs a worker commit to land (git work of a few ms once approved)' },
  'landing.cleaning': { skip: 'follows a landing; a few ms of pane close and worktree removal' },
  parked: { skip: "the mock's report never opens a decision" },
  'teardown.begin': { skip: 'held only while a stop is in flight; after every fault each live worker is stopped, walking teardown on the restored daemon' },
  'teardown.escaping': { skip: TEARDOWN_STEP },
  'teardown.settlingAfterEscape': { skip: TEARDOWN_STEP },
  'teardown.checkingTurn': { skip: TEARDOWN_STEP },
  'teardown.interrupting': { skip: TEARDOWN_STEP },
  'teardown.awaitingInterrupt': { skip: TEARDOWN_STEP },
  'teardown.checkingBox': { skip: TEARDOWN_STEP },
  'teardown.clearingBox': { skip: TEARDOWN_STEP },
  'teardown.awaitingClear': { skip: TEARDOWN_STEP },
  'teardown.exiting': { skip: TEARDOWN_STEP },
  'teardown.awaitingExit': { skip: TEARDOWN_STEP },
  'teardown.timedOut': { skip: 'needs an agent that ignores /exit for the whole stop timeout (30 s)' },
  waitFailed: { skip: 'the answer to a tmux server that does not answer: produced by the tmux-server fault, not a starting point' },
  stopped: { recipe: { project: 'yolo', task: 'work', thenStop: true, reach: at('stopped') } },
  gone: { recipe: { project: 'yolo', task: 'MODE:crash', reach: at('gone') } },
  failed: { skip: 'final, no pane (a crashed actor): nothing to orphan, and no fault puts a healthy worker there' },
  lost: { skip: 'final, pty only (the suite runs tmux, whose panes outlive the daemon)' },
  landed: { skip: 'final after a landing (see landing.*)' },
  rejected: { skip: 'final, no pane was ever made' },
};

/** The catalogue split: worker id (from the state path) → recipe, and the skipped with reasons. */
export function plan(): { reached: Array<{ id: string; state: string; recipe: Recipe }>; skipped: Array<{ state: string; reason: string }>; unknown: string[] } {
  const reached: Array<{ id: string; state: string; recipe: Recipe }> = [];
  const skipped: Array<{ state: string; reason: string }> = [];
  const unknown: string[] = [];
  for (const state of workerStatePaths()) {
    const e = CATALOGUE[state];
    if (!e) unknown.push(state);
    else if ('skip' in e) skipped.push({ state, reason: e.skip });
    else reached.push({ id: `at-${state.replace(/\./g, '-')}`.replace(/[^A-Za-z0-9_-]/g, '-'), state, recipe: e.recipe });
  }
  return { reached, skipped, unknown };
}
