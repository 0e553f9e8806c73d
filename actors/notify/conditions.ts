/**
 * What a worker view means to the person, derived from the daemon's own condition (conditionOf
 * in actors/daemon/wait.ts — the one place conditions are computed) plus the view's plain
 * fields (gate, waitingOn, landed, exitCode). One label per view; a notification or a journal
 * entry is made when a worker's label changes, never per repaint.
 */
import { conditionOf } from '../wait-report.ts';
import type { WorkerViewLike } from '../fleet-api.ts';
import { decisionKey } from '../../persistence/work/decision-store.ts';
import { quoteProblem, quoteWorker } from '../../contract/worker-words.ts';

export type Label = 'blocked' | 'gate' | 'parked' | 'crashed' | 'settled' | 'done' | 'stalled' | 'agent-error' | 'landed' | 'exited' | 'busy';

/** Labels that need the person: pushed at once (a notification). The rest only go to the journal. */
/** agent-error: the model failed (API error, usage limit); nothing moves until a person acts. */
export const NEEDS_PERSON: ReadonlySet<Label> = new Set(['blocked', 'gate', 'parked', 'crashed', 'agent-error']);

export function labelOf(v: WorkerViewLike): Label {
  const c = conditionOf(v);
  if (c === 'blocked') return v.gate ? 'gate' : 'blocked';
  if (c === 'stalled') return 'stalled';
  if (c === 'agent-error') return 'agent-error';
  if (c === 'settled') return v.waitingOn ? 'parked' : v.reportExists ? 'done' : 'settled';
  if (c === 'gone') {
    if (v.landed) return 'landed';
    return v.exitCode === 0 && !v.problem ? 'exited' : 'crashed';
  }
  return 'busy';
}

export interface LabelEvent {
  worker: string;
  project: string;
  /** Where it runs: `local` or a host's name (issue 28). */
  host: string;
  label: Label;
  /** A sentence for the person; a worker's words in it (an agent error's line) are quoted. */
  reason: string;
  /**
   * The worker's words as read (a dialog's question, the screen's last line, the decision it
   * parked on): raw here, so each face quotes them once on the way out (contract/worker-words.ts).
   */
  question: string | null;
  lastLine: string | null;
  command: string;
  decision: string | null;
  pr: string | null;
}

export function describe(v: WorkerViewLike, label: Label): LabelEvent {
  // A far worker is named with its machine in every sentence (w1 on build): the person must know where to look.
  const id = v.host && v.host !== 'local' ? `${v.id} on ${v.host}` : v.id;
  const decision = label === 'parked' && v.waitingOn ? decisionKey(v.id, v.waitingOn) : null;
  const pr = v.landed && typeof (v.landed.detail as Record<string, unknown>)?.pr === 'string' ? String((v.landed.detail as Record<string, unknown>).pr) : null;
  const base = { worker: v.id, project: v.project, host: v.host ?? 'local', label, lastLine: v.lastActivity || null, decision, pr, question: null as string | null };
  switch (label) {
    case 'blocked':
      // The dialog the reader listed carries the question itself; the last screen line of a menu is
      // its footer ("Enter to select"), which quoted as the question told the person nothing.
      return { ...base, reason: `${id} is blocked on ${v.blockedReason ?? 'a prompt'} and waits for you`, question: v.dialog?.question || v.lastActivity || null, command: `hand read ${id}` };
    case 'gate':
      return { ...base, reason: `${id} waits at its ${v.gate}`, command: `hand approve ${id}` };
    case 'parked':
      return { ...base, reason: `${id} parked on a decision`, question: v.waitingOn, command: `hand decide ${decision} "<answer>"` };
    case 'crashed':
      return { ...base, reason: `${id} ended unexpectedly (${v.problem ? quoteProblem(v.id, v.problem) : `exit ${v.exitCode ?? 'unknown'}`})`, command: `hand status ${id}` };
    case 'landed':
      return { ...base, reason: `${id} landed${pr ? ` (${pr})` : ''}`, command: `hand status ${id}` };
    case 'done':
      // Its landing is the person's next step: the command that asks for it. A read-only worker
      // (counsel) lands nothing: its report is the result, and closing it is the next step.
      if (v.readOnly) return { ...base, reason: `${id} finished its read-only report; closing it is yours to ask for`, command: `hand close ${id}` };
      return { ...base, reason: `${id} finished and wrote its report; landing it is yours to ask for`, command: `hand land ${id}` };
    case 'settled':
      return { ...base, reason: `${id} settled without a report`, command: `hand read ${id}` };
    case 'stalled':
      return { ...base, reason: `${id} has shown no change for a while`, command: `hand read ${id}` };
    case 'agent-error':
      return { ...base, reason: `${id}'s turn ended in an error: ${v.problem ? quoteProblem(v.id, v.problem) : v.lastActivity ? quoteWorker(v.id, v.lastActivity) : 'see its screen'}`, command: `hand read ${id}` };
    default:
      return { ...base, reason: `${id} is ${label}`, command: `hand status ${id}` };
  }
}
