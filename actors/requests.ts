/**
 * Person commands (send, key) travel as events through the fleet into the worker's machine,
 * which either delivers them (guarded I/O through the ports) or refuses them. This ties each
 * command to its caller's promise by a request id.
 */
import { PromptBoxNotEmptyError, RefusedError } from '../contract/errors.ts';
import type { RefuseParams } from '../machines/worker.types.ts';
import { awaitingInput } from '../contract/refusals.ts';

interface Pending {
  answered: boolean;
  resolve(): void;
  reject(err: unknown): void;
}

export class Requests {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  open(): { requestId: number; done: Promise<void> } {
    const requestId = this.next++;
    const done = new Promise<void>((resolve, reject) => {
      this.pending.set(requestId, { answered: false, resolve, reject });
    });
    return { requestId, done };
  }

  /** The machine accepted: the caller gets the I/O's outcome. */
  settle(requestId: number, work: Promise<void>): void {
    const p = this.pending.get(requestId);
    if (!p) {
      work.catch(() => {});
      return;
    }
    p.answered = true;
    work.then(p.resolve, p.reject).finally(() => this.pending.delete(requestId));
  }

  fail(requestId: number, err: unknown): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    p.answered = true;
    this.pending.delete(requestId);
    p.reject(err);
  }

  failIfUnanswered(requestId: number, err: unknown): void {
    if (this.pending.get(requestId)?.answered === false) this.fail(requestId, err);
  }
}

export function refusalError(p: RefuseParams, stage?: string): RefusedError {
  switch (p.code) {
    case 'prompt-box-not-empty':
      return new PromptBoxNotEmptyError(p.id, p.box, p.kind || 'typed');
    case 'awaiting-input':
      return awaitingInput(p.id, p.dialog, p.reason);
    case 'briefing':
      return new RefusedError('briefing', `worker ${p.id} is still receiving its brief; nothing was sent. Try again once it is running (hand wait ${p.id}).`, { id: p.id });
    case 'stopping':
      return new RefusedError('stopping', `worker ${p.id} is being stopped; nothing was sent.`, { id: p.id });
    default:
      return new RefusedError('not-accepting-input', `worker ${p.id} takes no input in its current phase${stage ? ` (${stage})` : ''}; nothing was sent. See hand status ${p.id}.`, { id: p.id, stage });
  }
}
