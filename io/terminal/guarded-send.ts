/**
 * The prompt-box guard on every send path (DESIGN.md principle 5, control-plane §3.4).
 *
 * Between turns Claude Code may render a generated suggestion into the empty box, and a bare
 * Enter accepts it — an instruction nobody wrote, submitted under the Hand's name. Typing into a
 * half-typed line mixes two prompts. So before text (or a first-key Enter) goes out, the live
 * box is read; if it holds anything, the send is refused and the text quoted. Never cleared: the
 * text is the only evidence of what was there. An unreadable screen or a failed read fails OPEN
 * (a guard that blocks on "could not tell" would wedge every steer of a worker we cannot see).
 */
import { PromptBoxNotEmptyError } from '../../contract/errors.ts';
import { checkSendableText } from '../text/sendable-text.ts';
import { analyseScreen, type ScreenReading } from '../screen/index.ts';
import { textWouldAnswerDialog } from '../../contract/screen-reading.ts';
import { awaitingInput } from '../../contract/refusals.ts';
import { assertKey, nextRedraw } from './keys.ts';
import type { Key, ReadResult, TerminalHost } from './types.ts';

export interface GuardOptions {
  /** Explicit override (`--allow-non-empty-box`): send even if the box holds text. */
  allowNonEmptyBox?: boolean;
  /** How the refusal names the target (the worker id); default the pane id. */
  label?: string;
  /** Screen profile to read the box with; default Claude Code. */
  agent?: string;
  /** The /exit of a stop: exempt from the dialog rule (teardown has pressed Escape for a menu first). */
  teardown?: boolean;
  /** Runs after the text is typed and before its Enter (see TerminalHost.sendText). */
  beforeEnter?: () => Promise<void>;
}

export type BoxCheck =
  | { state: 'empty' }
  | { state: 'holds'; text: string; kind: string }
  /** A dialog waits on a person: text would answer it (refused whatever the box override says). */
  | { state: 'dialog'; reading: ScreenReading }
  /** Fails open: the caller proceeds. */
  | { state: 'unknown'; detail: string };

/** Reads the live input box of a pane. */
export async function checkPromptBox(host: TerminalHost, paneId: string, agent?: string): Promise<BoxCheck> {
  let read: ReadResult;
  try {
    read = await host.readVisible(paneId);
  } catch (err) {
    return { state: 'unknown', detail: err instanceof Error ? err.message : String(err) };
  }
  if (!read.ok) return { state: 'unknown', detail: read.error };
  let reading: ScreenReading;
  try {
    reading = analyseScreen(read.screen, agent);
  } catch (err) {
    return { state: 'unknown', detail: err instanceof Error ? err.message : String(err) };
  }
  if (!reading.readable) return { state: 'unknown', detail: 'screen unreadable' };
  if (textWouldAnswerDialog(reading)) return { state: 'dialog', reading };
  if (reading.promptBox) return { state: 'holds', text: reading.promptBox, kind: reading.promptBoxKind ?? 'typed' };
  return { state: 'empty' };
}

async function assertBoxWritable(host: TerminalHost, paneId: string, opts: GuardOptions): Promise<void> {
  if (opts.allowNonEmptyBox) return;
  const box = await checkPromptBox(host, paneId, opts.agent);
  if (box.state === 'holds') throw new PromptBoxNotEmptyError(opts.label ?? paneId, box.text, box.kind);
}

/** Text only: the check at the glass for the dialog rule the machine applied to its last reading. */
async function assertNoDialog(host: TerminalHost, paneId: string, opts: GuardOptions): Promise<void> {
  if (opts.teardown && opts.allowNonEmptyBox) return;
  const box = await checkPromptBox(host, paneId, opts.agent);
  if (box.state === 'dialog') throw awaitingInput(opts.label ?? paneId, box.reading.dialog, box.reading.blockedReason);
  if (box.state === 'holds' && !opts.allowNonEmptyBox) throw new PromptBoxNotEmptyError(opts.label ?? paneId, box.text, box.kind);
}

/** Longest wait for typed text to show in the box before its Enter goes anyway (see waitForTextInBox). */
export const TEXT_IN_BOX_WAIT_MS = 2_000;

/**
 * Until the box shows text (or a dialog, or cannot be read), at most `ms`. The box was read empty
 * before our text went in, so text there now is ours. An agent busy loading (Gemini CLI resuming
 * a long conversation on a loaded machine) took our text and its Enter in one read, treated the
 * Enter as part of a paste, and drew the line in its box unsubmitted after the worker had been
 * read as settled; an Enter pressed once the text is drawn is one the agent takes as a key.
 */
async function waitForTextInBox(host: TerminalHost, paneId: string, agent: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const redraw = nextRedraw((p, l) => host.subscribe(p, l), paneId, Math.max(0, until - Date.now()));
    const box = await checkPromptBox(host, paneId, agent);
    if (box.state !== 'empty' || Date.now() >= until) return redraw.cancel();
    await redraw.promise;
    if (Date.now() >= until) return;
  }
}

/** Text then Enter, refused (nothing sent) if the box already holds text. */
export async function guardedSendText(host: TerminalHost, paneId: string, text: string, opts: GuardOptions = {}): Promise<void> {
  // Text is text on every path: a control byte or a paste end marker never reaches the pane.
  checkSendableText(text, opts.label);
  await assertNoDialog(host, paneId, opts);
  // Only where the box was read empty first (so what shows there is ours) and its reader is known.
  const echoed = opts.agent !== undefined && !opts.allowNonEmptyBox && text.trim() !== '';
  const beforeEnter = echoed
    ? async () => {
        await waitForTextInBox(host, paneId, opts.agent!, TEXT_IN_BOX_WAIT_MS);
        await opts.beforeEnter?.();
      }
    : opts.beforeEnter;
  await host.sendText(paneId, text, beforeEnter ? { beforeEnter } : undefined);
}

export interface KeyGuardOptions extends GuardOptions {
  /**
   * Only an Enter sent as the FIRST key is guarded: a later Enter answers the menu the earlier
   * keys moved through. Default true (a single key is a first key).
   */
  isFirstKey?: boolean;
}

/** Exactly one key; a first-key Enter is refused if the box holds text. */
export async function guardedSendKey(host: TerminalHost, paneId: string, key: Key, opts: KeyGuardOptions = {}): Promise<void> {
  assertKey(key);
  if (key === 'enter' && (opts.isFirstKey ?? true)) await assertBoxWritable(host, paneId, opts);
  await host.sendKey(paneId, key);
}

/**
 * Runs `action` and resolves once the pane reports a change (or exit) after it, or `settleMs`
 * after it. Listening starts when the action is done: on a loaded machine the send itself can
 * take longer than settleMs, and output still arriving from before it (a spinner, a menu being
 * drawn) is not the screen's answer to it. A redraw so fast that it lands before the action's
 * promise resolves is missed: the wait then runs its full settleMs, and the read that follows
 * still sees it.
 */
export async function actThenSettle(host: TerminalHost, paneId: string, action: () => Promise<void>, settleMs: number): Promise<void> {
  await action();
  await nextRedraw((p, l) => host.subscribe(p, l), paneId, settleMs).promise;
}

export interface KeysOptions extends GuardOptions {
  /** Longest wait for the screen to react to a key before reading it back; default 500 ms. */
  settleMs?: number;
}

/**
 * Several keys, one per call, the screen read back after each (principle 6). Every key is
 * validated before the first is sent. Returns the reading after each key.
 */
export async function sendKeysOneByOne(host: TerminalHost, paneId: string, keys: readonly Key[], opts: KeysOptions = {}): Promise<ReadResult[]> {
  for (const key of keys) assertKey(key);
  const readings: ReadResult[] = [];
  for (const [i, key] of keys.entries()) {
    await actThenSettle(host, paneId, () => guardedSendKey(host, paneId, key, { ...opts, isFirstKey: i === 0 }), opts.settleMs ?? 500);
    readings.push(await host.readVisible(paneId));
  }
  return readings;
}
