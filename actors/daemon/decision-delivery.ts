/**
 * Bringing an answer back to the worker that asked. A live session with an empty input box gets
 * it typed in through the ordinary guarded send; anything else keeps the answer pending (the
 * record says so) until the worker sits at an empty box again, or until it is relaunched.
 */
import { RefusedError } from '../../io/errors.ts';
import type { Decision } from '../../persistence/work/decision-store.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import type { FleetHostApi } from './fleet-api.ts';

export function answerPrompt(d: Decision, reportPath: string): string {
  return (
    `The person answered your question (decision ${d.key}): ${JSON.stringify(d.question)} → ${d.answer}. ` +
    `Carry on with the work on that basis. When you are done, write your report to ${reportPath} (without the Waiting on line) and end your turn; ` +
    `if you need another decision, write a new Waiting on: line there and end your turn.`
  );
}

/**
 * The integrator wires `hand relaunch <id> --note …` (another helper's issue) here: until then a
 * worker whose session is gone cannot take an answer, and this says how to bring it back.
 */
export function deliverByRelaunch(d: Decision): never {
  throw new RefusedError(
    'worker-not-live',
    `worker ${d.worker} is not live; relaunch it with hand relaunch ${d.worker} --note ${JSON.stringify(d.answer ?? '')} (the answer to ${d.key} is recorded, pending delivery).`,
    { key: d.key, worker: d.worker },
  );
}

export type Delivered = { delivered: true } | { delivered: false; why: string };

export async function deliverAnswer(deps: { fleet: FleetHostApi; stores: WorkStores; log: (o: Record<string, unknown>, m: string) => void }, d: Decision): Promise<Delivered> {
  const v = deps.fleet.view(d.worker);
  if (!v || v.live !== true) return { delivered: false, why: `worker ${d.worker} is not live` };
  if (v.promptBox !== '') return { delivered: false, why: v.promptBox === null ? `worker ${d.worker} shows no input box` : `the input box of ${d.worker} holds text` };
  try {
    await deps.fleet.send(d.worker, answerPrompt(d, v.reportPath));
    deps.stores.decisions.markDelivered(d.key);
    deps.log({ worker: d.worker, decision: d.key }, 'decision answer delivered');
    return { delivered: true };
  } catch (err) {
    deps.log({ worker: d.worker, decision: d.key, err: (err as Error).message }, 'decision answer not delivered; kept pending');
    return { delivered: false, why: (err as Error).message };
  }
}
