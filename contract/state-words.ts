/**
 * The words a worker's state goes by, in one table (issue 38 item 7): the review page's condition
 * badges, the stage column of its journal and `hand audience` all read them here, and the kind
 * they stand for comes from the tags the machine declares on its states (vocabulary.ts), never
 * from a stage's name. `hand audience` used to call a brief waiting for approval "blocked" and
 * a rejection "exited", while the page said "brief approval" and "rejected".
 *
 * Pure data and one pure function, so the CLI, the daemon and the page can all import it.
 */
import type { Condition, StateMark } from './vocabulary.ts';

/** Each thing a person tells a worker's state apart by, with its words. */
export const STATE_WORDS = {
  making: 'being set up',
  'brief-gate': 'brief approval',
  working: 'working',
  /** Starting, being briefed, or between readings of a turn (finishing, unsure, blind). */
  busy: 'busy',
  blocked: 'blocked',
  stalled: 'stalled',
  unclassified: 'could not tell',
  'agent-error': 'agent error',
  'wait-failed': 'could not tell',
  checking: 'checking its report',
  /** Settled without a confirmed report. */
  idle: 'idle',
  done: 'done',
  parked: 'open decision',
  'landing-gate': 'landing approval',
  landing: 'landing',
  stopping: 'stopping',
  stuck: 'did not stop',
  landed: 'landed',
  rejected: 'rejected',
  stopped: 'stopped',
  /** The agent's process ended (or its pane went) without being asked to. */
  exited: 'exited',
  failed: 'failed',
  lost: 'lost',
} as const;

export type StateKind = keyof typeof STATE_WORDS;

/** The kinds a worker ends in: nothing follows them. */
export const FINAL_KINDS: readonly StateKind[] = ['landed', 'rejected', 'stopped', 'exited', 'failed', 'lost'];

/** A state's tags: its one condition and its marks (actors/condition.ts reads them off the machine). */
export interface TaggedState {
  condition: Condition;
  marks: readonly StateMark[];
}

/** What a state is, by its tags: the gate it rests at, how it ended, or its condition. */
export function stateKindOf({ condition, marks }: TaggedState): StateKind {
  switch (condition) {
    case 'gate':
      return marks.includes('landing-gate') ? 'landing-gate' : 'brief-gate';
    case 'settled':
      return marks.includes('parked') ? 'parked' : marks.includes('landable') ? 'done' : 'idle';
    case 'busy':
      return marks.includes('working') ? 'working' : 'busy';
    case 'gone':
      if (marks.includes('landed')) return 'landed';
      if (marks.includes('rejected')) return 'rejected';
      if (marks.includes('failed')) return 'failed';
      if (marks.includes('lost')) return 'lost';
      return marks.includes('exited-cleanly') ? 'stopped' : 'exited';
    default:
      return condition;
  }
}

/** The words of a state, by its tags. */
export const stateWordsOf = (s: TaggedState): string => STATE_WORDS[stateKindOf(s)];

/**
 * What `hand audience` tells besides a state: a step of the worker's story that no one state
 * holds (work began again after a question, a new prompt, the start after the brief's approval).
 */
export const STEP_WORDS = {
  dispatched: 'dispatched',
  started: 'started after the brief was approved',
  answered: 'answered, working again',
  prompted: 'prompted again',
} as const;

export type StepKind = keyof typeof STEP_WORDS;
