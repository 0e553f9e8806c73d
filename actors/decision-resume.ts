/**
 * A decision's answer that an earlier daemon may have typed (issue 43): the daemon SIGKILLed
 * 0.2–0.4 s into `hand decide`'s delivery left the answer typed and never submitted, three times
 * in three; the decision read answered/pending, the worker stayed parked with our text in its
 * box (which every later delivery refused), and nothing could finish it.
 *
 * The first prompt's mechanism, reused (io/brief/submission-mark.ts, first-prompt-resume.ts,
 * docs/2026-12-02-a-first-prompt-is-marked-before-its-enter.md): the answer's Enter is marked on
 * disk first, naming the decision, so before the answer is typed again the restore asks:
 * - marked, our answer still in the box → one Enter: finished ('entered');
 * - marked, anything else → the Enter went: nothing is typed ('found-sent');
 * - not marked, our answer in the box → its Enter never went, and the text may be cut short (the
 *   kill came while it was typed or drawn): the box is cleared (ctrl-u) and the answer typed again
 *   whole ('rolled-back'). Cleared only where the text proves it is ours — the answer itself, or
 *   its visible start or end, never a paste marker that does not name our length — so a person's
 *   half-typed line is never wiped: it is left there and the answer waits ('none' with the box
 *   held), as before;
 * - not marked, no answer in the box → 'none': delivered as a fresh answer.
 */
import { boxTextIsPrompt } from '../machines/worker.guards.ts';
import { actThenSettle, checkPromptBox } from '../io/terminal/guarded-send.ts';
import { nextRedraw } from '../io/terminal/keys.ts';
import { resumeMarkedPrompt } from './first-prompt-resume.ts';
import type { Key, TerminalHost } from '../io/terminal/types.ts';
export { RECOVERY_WORDS } from '../contract/methods/work.ts';

export type AnswerResume = 'none' | 'entered' | 'found-sent' | 'rolled-back' | 'still-held';

const PASTE_CHARS = /^\[Pasted [Tt]ext: (\d+) chars?\]$/;

/** The box text is our answer, proven by the text: a paste marker counts only when it names our length. */
export function boxProvesOurAnswer(box: string, answer: string): boolean {
  const t = box.trim();
  if (t.startsWith('[Pasted')) return Number(PASTE_CHARS.exec(t)?.[1] ?? -1) === answer.length;
  return boxTextIsPrompt(box, answer);
}

export interface ResumeIo {
  host: TerminalHost;
  paneId: string;
  agent: string;
  /** An earlier daemon marked this answer's Enter in this pane. */
  marked: boolean;
  /** One key into the pane (the guard bypassed: the keys are chosen here, on our own text). */
  press(key: Key): Promise<void>;
}

/** How long the box may take to show itself cleared (each wait ends at the pane's next redraw). */
const CLEAR_SETTLE_MS = 1000;

export async function resumeAnswer(io: ResumeIo, answer: string): Promise<AnswerResume> {
  if (io.marked) {
    const r = await resumeMarkedPrompt(io.host, io.paneId, answer, io.agent, () => io.press('enter'));
    return r === 'entered' ? 'entered' : 'found-sent';
  }
  const box = await checkPromptBox(io.host, io.paneId, io.agent);
  if (box.state !== 'holds' || box.kind === 'suggestion' || !boxProvesOurAnswer(box.text, answer)) return 'none';
  await actThenSettle(io.host, io.paneId, () => io.press('ctrl-u'), CLEAR_SETTLE_MS);
  for (let look = 0; look < 3; look++) {
    const after = await checkPromptBox(io.host, io.paneId, io.agent);
    if (after.state === 'empty') return 'rolled-back';
    // The agent may redraw the cleared box in more than one frame.
    await nextRedraw((p, l) => io.host.subscribe(p, l), io.paneId, CLEAR_SETTLE_MS).promise;
  }
  return 'still-held';
}
