/**
 * `hand answer <id> <option>`: selects one numbered option of the dialog on a worker's screen
 * for the person who chose it. Keys go out one per call and the screen is read back between
 * them (principle 6): the cursor is moved with up/down (left/right for options drawn side by
 * side) until the screen shows it on the option,
 * then Enter. Refused, before any key, when the dialog on screen is not the one the caller saw
 * (its fingerprint differs); a key whose screen does not show the expected cursor ends the
 * answer there, saying which keys went out. A free-text option is only reached (no Enter): the
 * field is then live and `hand send` types the person's words into it.
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { DialogReading } from '../../io/screen/types.ts';
import type { Key } from '../../contract/keys.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { unknownWorker } from '../../contract/refusals.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { quoteDialog, quoteWorker } from '../../contract/worker-words.ts';

/** How long one key's screen may take to show; a dialog redraws within a frame or two. */
export const KEY_READBACK_MS = 3000;
/** How long the dialog must stay gone after Enter before the answer is told done. */
export const ENTER_HOLD_MS = 300;

export type { AnswerParams as AnswerRequest, AnswerResult } from '../../contract/methods.ts';
import type { AnswerParams as AnswerRequest, AnswerResult } from '../../contract/methods.ts';


/** The options as a face says them: each label the worker's words, quoted (issue 37). */
const optionsLine = (id: string, d: DialogReading) => d.options.map((o) => `${o.n}. ${quoteWorker(id, o.label)}`).join(' | ');

/** The dialogs each fleet's workers had answered, by fingerprint: a second answer to one is told who was first. */
const answered = new WeakMap<object, Map<string, { option: number; label: string; at: number }>>();

function dialogChanged(id: string, now: DialogReading | null, pressed: string[], before?: { option: number; label: string; at: number }): RefusedError {
  if (before && pressed.length === 0) {
    return new RefusedError('dialog-answered', `refused: the dialog on ${id} was already answered — ${before.option}. ${before.label} at ${new Date(before.at).toISOString()}; no key was pressed. ${now ? `It now shows ${now.question ? quoteWorker(id, now.question) : now.reason}.` : 'It shows no dialog now.'} Read it again (hand read ${id} --json) before answering anything else.`, { id, dialog: quoteDialog(id, now), pressed, answered: before });
  }
  const sent = pressed.length ? ` Keys already pressed: ${pressed.join(', ')}.` : ' No key was pressed.';
  const seen = now ? ` It now shows ${now.question ? quoteWorker(id, now.question) : now.reason} (${optionsLine(id, now)}), fingerprint ${now.fingerprint}.` : ' It shows no dialog now.';
  return new RefusedError('dialog-changed', `refused: the dialog on ${id} is not the one you answered.${seen}${sent} Read it again (hand read ${id} --json) and ask the person.`, { id, dialog: quoteDialog(id, now), pressed });
}

export async function answerDialog(fleet: FleetHostApi, req: AnswerRequest): Promise<AnswerResult> {
  const { id, option, fingerprint } = req;
  if (!fleet.view(id)) throw unknownWorker(id);
  // The dialog is checked on a reading taken now: a key never goes to a screen the view is behind.
  const first = await fleet.freshView(id);
  if (!first) throw unknownWorker(id);
  const dialog = first.dialog ?? null;
  const wasAnswered = answered.get(fleet)?.get(`${id}:${fingerprint}`);
  if (!dialog && wasAnswered) throw dialogChanged(id, null, [], wasAnswered);
  if (!dialog) throw new RefusedError('no-dialog', `worker ${id} shows no dialog to answer (${first.stage}); nothing was pressed. A parked decision is answered with hand decide.`, { id, stage: first.stage });
  const done = answered.get(fleet) ?? new Map<string, { option: number; label: string; at: number }>();
  answered.set(fleet, done);
  if (dialog.fingerprint !== fingerprint) throw dialogChanged(id, dialog, [], done.get(`${id}:${fingerprint}`));
  const target = dialog.options.find((o) => o.n === option);
  if (!target) throw new UsageError('no-such-option', `the dialog on ${id} has no option ${option}: ${optionsLine(id, dialog)}.`, { id, option });
  if (dialog.cursor === null) throw new RefusedError('no-cursor', `the cursor of the dialog on ${id} is not visible; nothing was pressed. Use hand keys ${id} <key>, one per call.`, { id });

  const pressed: string[] = [];
  let view: WorkerViewLike = first;
  /**
   * The first view from `last` on that `shows` what the last key did, within `timeoutMs`, or the
   * refusal that the screen did not. The current view counts too: its reading may have landed
   * while the key's request was still finishing, and no later one comes for a screen that then
   * holds still. A view from before the key never passes `shows` (its cursor is the old one, its
   * dialog the one answered, and the screen readable).
   */
  const readBack = async (shows: (v: WorkerViewLike) => boolean, last: WorkerViewLike, timeoutMs = KEY_READBACK_MS): Promise<void> => {
    const seen = await waitFor(fleet, id, shows, { timeoutMs, last });
    view = seen.view ?? last;
    if (seen.by === 'accepted') return;
    const now = view.dialog ?? null;
    // The same dialog, its cursor not yet where the key should have put it: slow, not changed.
    if (now?.fingerprint === fingerprint) {
      throw new RefusedError('key-not-seen', `refused: ${id}'s screen did not show what ${pressed.at(-1)} did within ${KEY_READBACK_MS / 1000} s (the dialog is the same, its cursor on ${now.cursor ?? 'no option'}). Keys already pressed: ${pressed.join(', ')}. Read it again (hand read ${id} --json) before pressing anything more.`, { id, dialog: quoteDialog(id, now), pressed });
    }
    throw dialogChanged(id, now, pressed);
  };
  /** One key, then the first screen that shows what it did (or the refusal that it did not). */
  const press = async (key: Key, shows: (v: WorkerViewLike) => boolean): Promise<void> => {
    const sent = await fleet.key(id, key);
    pressed.push(typeof key === 'string' ? key : key.char);
    await readBack(shows, sent);
  };

  /**
   * Enter, then its effect: a readable screen without the answered dialog that no reading shows
   * back within ENTER_HOLD_MS. A reading taken while the agent redraws the dialog (Ink erases
   * and rewrites its whole live region, and under load tmux hands the bytes over in pieces) can
   * show it cut short or gone for one frame; the rest of the frame brings it back, the agent not
   * having taken the key yet (seen with Qwen Code in a full run: answered, then blocked on the
   * same dialog 50 ms later). A dialog that comes back is waited out within the same read-back
   * bound as the Enter itself.
   */
  const pressEnter = async (): Promise<void> => {
    const gone = (v: WorkerViewLike) => v.readable && v.dialog?.fingerprint !== fingerprint;
    const deadline = Date.now() + KEY_READBACK_MS;
    await press('enter', gone);
    for (;;) {
      const back = await waitFor(fleet, id, (v) => v.dialog?.fingerprint === fingerprint, { timeoutMs: ENTER_HOLD_MS, fresh: true, last: view });
      view = back.view ?? view;
      if (back.by !== 'accepted') return;
      await readBack(gone, view, Math.max(0, deadline - Date.now()));
    }
  };

  let cursor = dialog.cursor;
  // Options side by side (OpenCode's permission buttons) move with left and right.
  const [forward, back]: [Key, Key] = dialog.across ? ['right', 'left'] : ['down', 'up'];
  while (cursor !== option) {
    const next = cursor < option ? cursor + 1 : cursor - 1;
    await press(cursor < option ? forward : back, (v) => v.dialog?.fingerprint === fingerprint && v.dialog.cursor === next);
    cursor = next;
  }
  // The label is the worker's words: quoted in the result and its message (issue 37).
  const label = quoteWorker(id, target.label);
  if (target.freeText) {
    return {
      id, option, label, keys: pressed, textField: true, stage: view.stage, state: view.state, dialog: quoteDialog(id, view.dialog),
      message: `${id}: the cursor is on option ${option}, ${label}; type the person's words with hand send ${id} "<their answer>".`,
    };
  }
  // Enter picks the row: the dialog it answered is gone from a screen that could be read (or
  // another one came), and stays gone. An unreadable one (a capture mid-redraw) shows no dialog
  // and proves nothing; nor does one reading without it that the next reading contradicts.
  await pressEnter();
  done.set(`${id}:${fingerprint}`, { option, label, at: Date.now() });
  // A bound, not a history: the oldest answers go first.
  for (const k of done.keys()) {
    if (done.size <= 200) break;
    done.delete(k);
  }
  return {
    id, option, label, keys: pressed, textField: false, stage: view.stage, state: view.state, dialog: quoteDialog(id, view.dialog),
    message: `${id}: answered ${option}, ${label} (keys ${pressed.join(', ')}) · now ${view.stage}.`,
  };
}
