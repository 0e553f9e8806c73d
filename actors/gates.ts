/**
 * The two gates as the daemon and the CLI see them: which stage is which gate, what it waits
 * for, and the refusal for an approve/reject that finds no gate open (it names the stage and
 * the way to a gate, so the person is never left guessing).
 */
import { RefusedError } from '../io/errors.ts';

export const BRIEF_GATE_STAGE = 'gate.awaitingBriefApproval';
export const LANDING_GATE_STAGE = 'landing.awaitingApproval';

export type GateName = 'brief approval' | 'landing approval';

/** The gate a stage rests in, or null. */
export function gateOfStage(stage: string): GateName | null {
  if (stage === BRIEF_GATE_STAGE) return 'brief approval';
  if (stage === LANDING_GATE_STAGE) return 'landing approval';
  return null;
}

export function waitingForText(id: string): string {
  return `hand approve ${id} | hand reject ${id} --reason <why>`;
}

/** What to do instead, by where the worker is. */
function nextStep(id: string, stage: string): string {
  const top = stage.split('.')[0]!;
  if (top === 'done') return `it is done; open its landing gate with hand land ${id}.`;
  if (top === 'parked') return `it is parked on an open decision; answer that first (hand send ${id} …), then hand land ${id} once it is done.`;
  if (top === 'landing' || top === 'teardown') return `its landing is already under way; follow it with hand status ${id}.`;
  if (['stopped', 'gone', 'failed', 'lost', 'landed', 'rejected'].includes(top)) return `it has ended (${stage}); a rejected brief is revised and dispatched again under the same id.`;
  return `wait until it is done (hand wait ${id} --until settled), then open its landing gate with hand land ${id}.`;
}

export function noOpenGate(id: string, stage: string): RefusedError {
  return new RefusedError('no-open-gate', `worker ${id} has no open gate (stage ${stage}); ${nextStep(id, stage)}`, { id, stage });
}
