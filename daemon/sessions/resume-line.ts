/**
 * What a resumed worker is told, and what a refused resume says. A resumed conversation gets one
 * line typed in, written by kingshand and the same every time, saying what happened — nothing
 * else is typed (issue 41: its conversation is its own). A worker that was waiting on a person
 * when it was lost is told its question is still open, so it waits again instead of going on
 * without the answer; one that was blocked on a dialog asks again when it retries the step.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { SessionProof } from '../../io/agent/sessions/types.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';

export const RESUME_LINE = 'The machine restarted and this conversation was resumed in a new terminal; carry on from where you were.';
export const RESUME_LINE_WAITING = 'The machine restarted and this conversation was resumed in a new terminal; your question to the person is still open: end your turn and wait for the answer.';

/** The one line for this worker: whether it was waiting on a person's answer when it was lost. */
export function resumeLineFor(v: Pick<WorkerViewLike, 'waitingOn' | 'marks'>): string {
  return v.waitingOn || v.marks.includes('parked') ? RESUME_LINE_WAITING : RESUME_LINE;
}

const CODES: Record<Extract<SessionProof, { ok: false }>['why'], string> = {
  missing: 'session-missing',
  truncated: 'session-truncated',
  'another-worktree': 'session-not-its-own',
  refused: 'session-refused',
  'cannot-resume': 'session-cannot-resume',
};

/** A resume that cannot be done: which problem, and the fresh relaunch that is still there. */
export function resumeRefusal(id: string, proof: Extract<SessionProof, { ok: false }>): RefusedError {
  return new RefusedError(
    CODES[proof.why],
    `worker ${id}'s conversation is not resumed: ${proof.detail}. Nothing was stopped or changed. A fresh session in the same worktree and branch, briefed with a progress note, remains: hand relaunch ${id}`,
    { id, why: proof.why },
  );
}
