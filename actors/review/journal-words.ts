/**
 * The journal's machine event names in a person's words, for the review page: a row read
 * `xstate.done.actor.0.worker.preparing`, which says nothing to someone who expects "worktree
 * ready". The raw name stays in the row's tooltip (title) for whoever debugs the machine.
 * XState v5 names an invoked actor's end `xstate.done.actor.<n>.<state id>`; the state says
 * which step ended (machines/worker.states.*.ts). A row's stages read as the page's condition
 * badges do (contract/state-words.ts): `gate.awaitingBriefApproval → rejected` is "brief approval
 * → rejected", the stage path in the tooltip.
 */
import { meaningOfStage } from '../condition.ts';
import { stateWordsOf } from '../../contract/state-words.ts';

/** What finishing the step invoked in that state means. */
const STEP_DONE: Record<string, string> = {
  preparing: 'worktree ready',
  seeding: 'agent settings and folder trust written',
  spawning: 'terminal started',
  applying: 'landing applied',
  cleaning: 'worktree and terminal cleaned up',
  checking: 'report checked',
  reporting: 'report read',
};

const STEP_NAME: Record<string, string> = {
  preparing: 'making the worktree',
  seeding: 'writing the agent settings',
  spawning: 'starting the terminal',
  applying: 'landing',
  cleaning: 'cleaning up',
  checking: 'checking the report',
  reporting: 'reading the report',
};

const EVENT: Record<string, string> = {
  APPROVE: 'approved by a person',
  REJECT: 'rejected by a person',
  STOP: 'asked to stop',
  SCREEN: 'screen changed',
  SEND: 'text sent to the worker',
  KEYS: 'key pressed',
  LAND: 'landing gate opened',
  DEADLINE: 'a timer ran out',
  EXITED: 'agent exited',
  LOST: 'terminal lost',
  PANE_MISSING: 'terminal not found',
  'xstate.init': 'dispatched',
  PHONE_ANSWER: "answered from a notification's button",
  PHONE_DECIDE: "decision answered from a notification's button",
  PHONE_VIEW: "page opened from a notification's link",
  PHONE_REFUSED: 'a link from a notification was refused',
  'backlog.requeued': 'item back in the queue',
};

const DONE = /^xstate\.done\.actor\.[^.]+\.(.+)$/;
const ERROR = /^xstate\.error\.actor\.[^.]+\.(.+)$/;

/** The state the invoked actor belonged to: the last segment of its state id (`worker.starting.submitting` → `submitting`). */
const lastSegment = (stateId: string) => stateId.split('.').at(-1) ?? stateId;
const spaced = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').toLowerCase();

export function journalWords(type: string): string {
  if (EVENT[type]) return EVENT[type]!;
  const done = DONE.exec(type);
  if (done) {
    const step = lastSegment(done[1]!);
    return STEP_DONE[step] ?? `${spaced(step)} step finished`;
  }
  const error = ERROR.exec(type);
  if (error) {
    const step = lastSegment(error[1]!);
    return `${STEP_NAME[step] ?? spaced(step)} failed`;
  }
  return type;
}

/** A journaled stage in the badge's words; a stage the machine no longer has stays as it was written. */
export function stageWords(stage: string): string {
  try {
    return stateWordsOf(meaningOfStage(stage));
  } catch {
    return stage;
  }
}
