/**
 * The two gates as the daemon and the CLI see them: which gate a worker rests at (from its
 * state's marks), what it waits for, and the refusal for an approve/reject that finds no gate
 * open (it names the stage and the way to a gate, so the person is never left guessing).
 */
import { RefusedError } from '../contract/errors.ts';
import type { Condition, StateMark } from '../contract/vocabulary.ts';
import { STATE_WORDS } from '../contract/state-words.ts';

/** A gate by its words, which are its badge's (contract/state-words.ts). */
export type GateName = (typeof STATE_WORDS)['brief-gate' | 'landing-gate'];

/** The gate a state rests at, or null. */
export function gateOf(marks: readonly StateMark[]): GateName | null {
  if (marks.includes('brief-gate')) return STATE_WORDS['brief-gate'];
  if (marks.includes('landing-gate')) return STATE_WORDS['landing-gate'];
  return null;
}

export function waitingForText(id: string): string {
  return `hand approve ${id} | hand reject ${id} --reason <why>`;
}

interface Where { id: string; stage: string; condition: Condition; marks: readonly StateMark[] }

/** What to do instead, by where the worker is. */
function nextStep({ id, stage, condition, marks }: Where): string {
  if (marks.includes('landable')) return `it is done; open its landing gate with hand land ${id}.`;
  if (marks.includes('parked')) return `it is parked on an open decision; answer that first (hand send ${id} …), then hand land ${id} once it is done.`;
  if (condition === 'landing' || condition === 'stopping' || condition === 'stuck') return `its landing is already under way; follow it with hand status ${id}.`;
  if (condition === 'gone') return `it has ended (${stage}); a rejected brief is revised and dispatched again under the same id.`;
  return `wait until it is done (hand wait ${id} --until settled), then open its landing gate with hand land ${id}.`;
}

export function noOpenGate(w: Where): RefusedError {
  return new RefusedError('no-open-gate', `worker ${w.id} has no open gate (stage ${w.stage}); ${nextStep(w)}`, { id: w.id, stage: w.stage });
}
