/**
 * The fault suite's catalogue, generated from the worker machine: every leaf state of
 * machines/worker.machine.ts is listed, and each has either a recipe that puts a real worker
 * there (the mock agent's brief triggers, a project's gate, a fault hold for a state that waits
 * on a port) or a reason why it is skipped. A state added to the machine without either fails the
 * suite's first test, so a new state is never silently left out.
 */
import { workerMachine } from '../../machines/worker.machine.ts';
import type { HoldableState } from '../../daemon/fault-holds.ts';

export interface Recipe {
  /** The gated project (brief gate) or the yolo one. */
  project: 'yolo' | 'gated';
  /** Brief task text (the mock's scenario triggers). */
  task: string;
  stall?: string;
  hold?: HoldableState;
  /**
   * Stop the worker once it is seen at a stage `after` accepts (default: settled): `held`, the
   * stop is held on its way (a teardown hold) and its `hand stop` ends only with the fault;
   * `timeout`, hand stop's --timeout.
   */
  thenStop?: { after?: (stage: string) => boolean; held?: boolean; timeout?: string };
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
const HOLD = (hold: HoldableState, task = 'work'): Entry => ({ recipe: { project: 'yolo', task, hold, reach: at(hold) } });
/** A stop held at one of its steps, from the stage the worker rests in first. */
const STOP_HELD = (hold: HoldableState, task: string, from: string, timeout?: string): Entry => ({
  recipe: { project: 'yolo', task, hold, thenStop: { after: (s) => s.startsWith(from), held: timeout === undefined, ...(timeout && { timeout }) }, reach: at(hold) },
});
const NO_PORT = 'entered and left on screen readings alone, with no port to hold it; the fault holds on either side bracket it';
const BRIEF_DETOUR = 'entered only when the agent loses or delays the first Enter in a particular way; no port holds it (tests/actors/first-prompt-submission.test.ts restores it under a simulated clock)';
const TRANSIENT = 'an `always` step: decided and left in the same transition, never a resting state (a restore re-enters teardown at its begin)';
const SETTLE_STEP = (after: string) => `waits only a settle time (a second or less) for the screen to show the ${after} took, then moves on whatever it shows: too short to hold a kill in, and no port to hold it`;
const NEEDS_LANDING = 'needs a commit of the worker\'s own to land; the mock makes none (a landing across a restart is tests/actors/gates-survive-a-restart.test.ts)';

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
  'running.agentError': { recipe: { project: 'yolo', task: 'MODE:error', reach: at('running.agentError') } },
  'running.unsure': { skip: 'needs a readable screen no rule can classify; the mock draws only screens the reader knows (the bound itself is tests/actors/could-not-tell-wakes-a-person.test.ts)' },
  'running.unclassified': { skip: 'follows running.unsure after its bound (see running.unsure)' },
  'running.blind': { skip: 'needs an unreadable screen; the mock always draws a readable one at the fixed pane size' },
  'settled.checking': HOLD('settled.checking'),
  'settled.unconfirmed': { recipe: { project: 'yolo', task: 'work', reach: at('settled.unconfirmed') } },
  reporting: HOLD('reporting', 'MODE:report'),
  done: { recipe: { project: 'yolo', task: 'MODE:report', reach: at('done') } },
  'landing.awaitingApproval': { skip: NEEDS_LANDING },
  'landing.applying': { skip: NEEDS_LANDING },
  'landing.cleaning': { skip: NEEDS_LANDING },
  parked: { recipe: { project: 'yolo', task: 'MODE:park', reach: at('parked') } },
  'teardown.begin': { skip: TRANSIENT },
  'teardown.escaping': STOP_HELD('teardown.escaping', 'MODE:ask pick one', 'running.blocked'),
  'teardown.settlingAfterEscape': { skip: SETTLE_STEP('Escape') },
  'teardown.checkingTurn': { skip: TRANSIENT },
  'teardown.interrupting': STOP_HELD('teardown.interrupting', 'MODE:hang long job', 'running.working'),
  'teardown.awaitingInterrupt': { skip: SETTLE_STEP('interrupt') },
  'teardown.checkingBox': { skip: TRANSIENT },
  'teardown.clearingBox': { skip: 'needs text typed into the box of a worker being stopped; no recipe types a half line (tests/cli/stop-clears-blanks-typed-into-the-box.test.ts)' },
  'teardown.awaitingClear': { skip: SETTLE_STEP('ctrl-u') },
  'teardown.exiting': STOP_HELD('teardown.exiting', 'work', 'settled'),
  'teardown.awaitingExit': { skip: 'rests only until its stop deadline: with the /exit swallowed it goes on to teardown.timedOut, which is reached' },
  'teardown.timedOut': STOP_HELD('teardown.timedOut', 'work', 'settled', '2s'),
  waitFailed: { skip: 'the answer to a tmux server that does not answer: produced by the tmux-server fault, not a starting point' },
  stopped: { recipe: { project: 'yolo', task: 'work', thenStop: {}, reach: at('stopped') } },
  gone: { recipe: { project: 'yolo', task: 'MODE:crash', reach: at('gone') } },
  failed: { skip: 'final, no pane (a crashed actor): nothing to orphan, and no fault puts a healthy worker there' },
  lost: { skip: 'final, pty only (the suite runs tmux, whose panes outlive the daemon)' },
  landed: { skip: NEEDS_LANDING },
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
