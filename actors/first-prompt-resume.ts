/**
 * Typing the first prompt when it may already be typed.
 *
 * The daemon can die between typing the first prompt and pressing its Enter (the host waits for
 * the agent to draw the text first, a window of up to a few hundred ms). The restored worker is
 * still in `briefing.sending` and types again, and the glass check at the box then refuses: the
 * box holds text. That text is the prompt this worker typed into a box it had read as empty, so
 * it is submitted (one Enter, the same reasoning as `briefing.resubmitting`,
 * docs/2026-11-30-first-prompt-resubmit.md). Before this, the refusal failed the worker while
 * its agent ran on with the prompt unsent: not live, unstoppable, its id taken.
 *
 * Anything else in the box (a suggestion, someone's half-typed line, a prefix too short to be
 * sure of) is refused as before.
 */
import { boxTextIsPrompt } from '../machines/worker.guards.ts';
import { RefusedError } from '../contract/errors.ts';
import { checkPromptBox } from '../io/terminal/guarded-send.ts';
import type { TerminalHost } from '../io/terminal/types.ts';

export async function sendFirstPrompt(
  send: (opts: { allowNonEmptyBox: boolean }) => Promise<void>,
  pressEnter: () => Promise<void>,
  prompt: string,
  allowNonEmptyBox: boolean,
  onResumed?: (box: string) => void,
): Promise<void> {
  try {
    await send({ allowNonEmptyBox });
  } catch (err) {
    const box = ourPromptInRefusal(err, prompt);
    if (box === null) throw err;
    onResumed?.(box);
    await pressEnter();
  }
}

/**
 * A first prompt whose submission was marked (an earlier daemon pressed, or was about to press,
 * its Enter) is never typed again. Our own text still in the box was typed and not taken: one
 * Enter. Anything else — an empty box, the agent at work, a dialog, other text, a screen that
 * cannot be read — means it went out (or a person must look, which the machine's screen
 * transitions decide): 'sent', and nothing is typed.
 */
export async function resumeMarkedPrompt(host: TerminalHost, paneId: string, prompt: string, agent: string, pressEnter: () => Promise<void>): Promise<'sent' | 'entered'> {
  const box = await checkPromptBox(host, paneId, agent);
  if (box.state === 'holds' && box.kind !== 'suggestion' && boxTextIsPrompt(box.text, prompt)) {
    await pressEnter();
    return 'entered';
  }
  return 'sent';
}

/** The box text a prompt-box refusal quoted, when it is our own prompt; else null. */
export function ourPromptInRefusal(err: unknown, prompt: string): string | null {
  if (!(err instanceof RefusedError) || err.code !== 'prompt-box-not-empty') return null;
  const box = typeof err.details.box === 'string' ? err.details.box : '';
  if (err.details.kind === 'suggestion') return null;
  return boxTextIsPrompt(box, prompt) ? box : null;
}
