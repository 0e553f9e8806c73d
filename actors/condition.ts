/**
 * The ONE place a worker's state is given a meaning outside the machine definitions: its
 * condition and marks come from the tags the machine declares on its states (contract/
 * vocabulary.ts lists them). Nothing else in actors/, cli/ or bench/ compares stage strings;
 * they ask for the condition, a mark, or the wait reason derived here.
 */
import type { AnyStateNode } from 'xstate';
import { workerMachine } from '../machines/worker.machine.ts';
import { CONDITIONS, STATE_MARKS, isOneOf, type Condition, type StateMark, type WaitReason } from '../contract/vocabulary.ts';

export interface StateMeaning {
  condition: Condition;
  marks: StateMark[];
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

/** The state nodes along a stage path, root excluded ('running.blocked' → running, blocked). */
function nodesOf(stage: string): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  let node: AnyStateNode | undefined = workerMachine.root as AnyStateNode;
  for (const key of stage.split('.')) {
    node = node?.states[key];
    if (!node) throw new Error(`worker machine has no state ${stage}`);
    out.push(node);
  }
  return out;
}

/** Tags of a stage: every tag on the path to its leaf (what XState's snapshot.tags holds). */
export function tagsOfStage(stage: string): string[] {
  return nodesOf(stage).flatMap((n) => n.tags);
}

/** Condition and marks from a set of tags; exactly one condition tag, or the machine is wrong. */
export function meaningOfTags(tags: Iterable<string>, where = 'a state'): StateMeaning {
  const all = [...tags];
  const conditions = all.filter((t): t is Condition => isOneOf(CONDITIONS, t));
  if (conditions.length !== 1) throw new Error(`${where} has ${conditions.length} condition tags (${conditions.join(', ') || 'none'}); it needs exactly one`);
  return { condition: conditions[0]!, marks: all.filter((t): t is StateMark => isOneOf(STATE_MARKS, t)) };
}

const cache = new Map<string, StateMeaning>();

/** What a stage means (cached: a stage's tags are fixed by the machine definition). */
export function meaningOfStage(stage: string): StateMeaning {
  let m = cache.get(stage);
  if (!m) {
    m = meaningOfTags(tagsOfStage(stage), `worker state ${stage}`);
    cache.set(stage, m);
  }
  return m;
}

/** A worker whose actor crashed (no usable snapshot): gone, and failed. */
export const CRASHED: StateMeaning = { condition: 'gone', marks: ['failed'] };

/** The parts of a view the wait reason reads. */
export interface ConditionFacts {
  condition: Condition;
  /** false = the agent's process has exited (whatever the machine has seen of it yet). */
  live: boolean | null;
  awaitingInput: boolean;
  /** Screen and hook disagree past their grace (actors/witness.ts): a person looks. */
  disputed?: unknown;
  /** Its terminal server did not answer within its bound (actors/host-answers.ts): why. */
  couldNotTell?: string | null;
}

/**
 * The conditions the screen decides: while the screen cannot be read (a silent server) none of
 * them is told as if it were current. A gate, a rest (settled, done, parked), a landing or a
 * teardown does not depend on what is on screen now.
 */
const READ_OFF_THE_SCREEN: ReadonlySet<Condition> = new Set<Condition>(['busy', 'blocked', 'stalled', 'unclassified', 'agent-error']);

/**
 * What `hand wait` wakes for, or null while the worker is busy, being made, checking its report
 * or landing. A dead process is gone before anything else; a dialog on screen is blocked even
 * in a state that has not moved yet.
 */
export function waitReasonOf(v: ConditionFacts): Exclude<WaitReason, 'timeout'> | null {
  if (v.live === false) return 'gone';
  switch (v.condition) {
    case 'gone':
    case 'stopping':
    case 'stuck':
      return 'gone';
    case 'wait-failed':
      return 'wait-failed';
    default:
  }
  // Could not tell: its server did not answer within the bound. Never the last answer, never a stall.
  if (v.couldNotTell && READ_OFF_THE_SCREEN.has(v.condition)) return 'wait-failed';
  if (v.awaitingInput || v.condition === 'blocked' || v.condition === 'gate') return 'blocked';
  if (v.condition === 'stalled') return 'stalled';
  if (v.disputed) return 'disputed';
  if (v.condition === 'unclassified') return 'unclassified';
  // The turn ended in an API error or a usage limit: never settled, a person must know.
  if (v.condition === 'agent-error') return 'agent-error';
  if (v.condition === 'settled') return 'settled';
  return null;
}

/** Landing runs on its own from here (applying, cleaning, its teardown): not yet an outcome. */
export const landingUnderWay = (c: Condition): boolean => c === 'landing' || c === 'stopping';

/** A `hand land` or landing approval has come to rest: off the gate and no longer under way. */
export const landingAtRest = (v: { condition: Condition; marks: readonly StateMark[] }): boolean =>
  !v.marks.includes('landing-gate') && !landingUnderWay(v.condition);
