/**
 * Bringing an answer back to the worker that asked. A live session with an empty input box gets
 * it typed in through the ordinary guarded send; anything else keeps the answer pending (the
 * record says so) until the worker sits at an empty box again; a worker that is not live is
 * relaunched with the answer in its progress note (deliverByRelaunch).
 */
import { HandError, RefusedError } from '../../contract/errors.ts';
import { relaunchWorker, type RelaunchDeps, type RelaunchResult } from '../gates/relaunch.ts';
import type { Decision } from '../../persistence/work/decision-store.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import { boxProvesOurAnswer, RECOVERY_WORDS } from '../../actors/decision-resume.ts';

export function answerPrompt(d: Decision, reportPath: string): string {
  return (
    `The person answered your question (decision ${d.key}): ${JSON.stringify(d.question)} → ${d.answer}. ` +
    `Carry on with the work on that basis. When you are done, write your report to ${reportPath} (without the Waiting on line) and end your turn; ` +
    `if you need another decision, write a new Waiting on: line there and end your turn.`
  );
}

/**
 * The note a relaunch carries for an answered decision: the question and the answer, worded as
 * the typed-in answer is (answerPrompt), so the new session reads it the same way.
 */
export function decisionNote(d: Decision): string {
  return `The person answered your question (decision ${d.key}): ${JSON.stringify(d.question)} → ${d.answer ?? ''}. Carry on with the work on that basis; do not ask it again.`;
}

/**
 * A worker whose session is gone takes its answer by a relaunch (daemon/gates/relaunch.ts) whose
 * progress note carries the question and the answer; the decision is then delivered. A refused
 * relaunch (a landed or rejected worker, one at a gate) keeps the answer pending and says why.
 */
export async function deliverByRelaunch(deps: { stores: WorkStores; relaunch: RelaunchDeps; log: (o: Record<string, unknown>, m: string) => void }, d: Decision): Promise<{ delivered: true; relaunch: RelaunchResult } | { delivered: false; why: string; code: string }> {
  try {
    const relaunch = await relaunchWorker(d.worker, { note: decisionNote(d) }, deps.relaunch);
    deps.stores.decisions.markDelivered(d.key);
    deps.log({ worker: d.worker, decision: d.key }, 'decision answer delivered by relaunch');
    return { delivered: true, relaunch };
  } catch (err) {
    deps.log({ worker: d.worker, decision: d.key, err: (err as Error).message }, 'relaunch for a decision refused; answer kept pending');
    return { delivered: false, why: (err as Error).message, code: err instanceof HandError ? err.code : 'relaunch-failed' };
  }
}

export type Delivered = { delivered: true } | { delivered: false; why: string };

/**
 * Whether a live worker's box shows what a delivery can start on: empty, or holding this
 * answer, typed by an earlier daemon that was killed before its Enter (finished or cleared then).
 */
export function boxTakesTheAnswer(d: Decision, promptBox: string | null, reportPath: string): boolean {
  return promptBox === '' || (promptBox !== null && boxProvesOurAnswer(promptBox, answerPrompt(d, reportPath)));
}

/**
 * Types an answered decision into its live worker. Called only by the work watch's `deliver`,
 * which owns the delivery (one at a time per worker). Each log line says what reached the pane:
 * a refusal happens before any byte (nothing was typed); any other failure may come after the
 * text was typed, and the log says so instead of claiming nothing was sent.
 */
export function deliverAnswer(deps: { fleet: FleetHostApi; stores: WorkStores; log: (o: Record<string, unknown>, m: string) => void }, d: Decision): Promise<Delivered> {
  // In the worker's input lane: nobody else's keys or text reach it between the check and the send.
  return deps.fleet.inLane(d.worker, () => deliverInLane(deps, d));
}

async function deliverInLane(deps: { fleet: FleetHostApi; stores: WorkStores; log: (o: Record<string, unknown>, m: string) => void }, d: Decision): Promise<Delivered> {
  // Read back: the answer may have been delivered while this call waited its turn.
  if (deps.stores.decisions.get(d.key)?.delivery === 'sent') return { delivered: true };
  const v = deps.fleet.view(d.worker);
  if (!v || v.live !== true) return { delivered: false, why: `worker ${d.worker} is not live` };
  const text = answerPrompt(d, v.reportPath);
  try {
    // What an earlier daemon (killed during this delivery) left in the pane: finished, found
    // sent, or cleared to be typed again whole (actors/decision-resume.ts, issue 43).
    const resumed = await deps.fleet.resumeAnswer(d.worker, text, d.key);
    if (resumed === 'entered' || resumed === 'found-sent') {
      deps.stores.decisions.markDelivered(d.key, resumed);
      // Its turn on the answer may have ended while no daemon watched: no longer parked on it.
      deps.fleet.answerWentIn(d.worker);
      deps.log({ worker: d.worker, decision: d.key, recovery: resumed }, `decision answer ${RECOVERY_WORDS[resumed]}`);
      return { delivered: true };
    }
    if (resumed === 'rolled-back') {
      deps.stores.decisions.noteRolledBack(d.key);
      deps.log({ worker: d.worker, decision: d.key, recovery: resumed }, `decision answer ${RECOVERY_WORDS[resumed]}`);
    }
    if (resumed === 'still-held') return { delivered: false, why: `the input box of ${d.worker} still holds the answer an earlier daemon typed after ctrl-u` };
  } catch (err) {
    deps.log({ worker: d.worker, decision: d.key, err: (err as Error).message }, 'reading what an earlier delivery left failed; kept pending');
    return { delivered: false, why: (err as Error).message };
  }
  const now = deps.fleet.view(d.worker) ?? v;
  if (now.promptBox !== '') return { delivered: false, why: now.promptBox === null ? `worker ${d.worker} shows no input box` : `the input box of ${d.worker} holds text` };
  try {
    await deps.fleet.send(d.worker, text, { decision: d.key });
    deps.stores.decisions.markDelivered(d.key);
    deps.log({ worker: d.worker, decision: d.key }, 'decision answer delivered');
    return { delivered: true };
  } catch (err) {
    const refused = err instanceof RefusedError;
    deps.log(
      { worker: d.worker, decision: d.key, err: (err as Error).message, ...(err instanceof HandError ? { code: err.code } : {}) },
      refused ? 'decision answer refused before typing; kept pending' : 'decision answer send failed; the text may have reached the pane; kept pending',
    );
    return { delivered: false, why: (err as Error).message };
  }
}
