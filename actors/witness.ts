/**
 * The second witness: what Claude Code's own hooks say beside what the screen shows.
 * The screen stays the authority whenever it can tell. The hook's word decides only when the
 * screen reading is could-not-tell (readable, state unknown): a Notification that asks for
 * permission or input then reads as blocked, with the hook's message as the reason. When both
 * can tell and disagree for longer than DISPUTE_MS, the worker is `disputed` (both readings
 * shown; `hand wait` wakes for it). Pure: the fleet host holds one WitnessState per worker.
 */
import type { ScreenReading } from '../contract/screen-reading.ts';
import type { HookNote } from '../contract/hook-note.ts';
import type { TokenUsage } from '../io/agent/claude/transcript-usage.ts';

/** How long screen and hook may disagree before a person is told (a dialog paints within this). */
export const DISPUTE_MS = 5000;

export type { HookWord } from '../contract/methods.ts';
import type { HookWord } from '../contract/methods.ts';

export interface WitnessState {
  note: HookNote | null;
  word: HookWord | null;
  /** The screen showed the hook's needs-input (blocked) since the note came. */
  confirmed: boolean;
  /** …and then moved on (answered): the word no longer claims anything. */
  spent: boolean;
  /** The last reading as the screen gave it (before any substitution). */
  screen: ScreenReading | null;
  /** Since when a readable screen and an unspent hook word have disagreed. */
  disagreeSince: number | null;
  /** When the screen last showed a dialog (blocked): a hook delivered late may find it answered. */
  lastBlockedAt: number | null;
  tokens: TokenUsage | null;
}

/** A hook runs as its dialog paints; its note may reach the daemon this much later (a Node start-up). */
export const LATE_NOTE_MS = 3000;

export const newWitness = (): WitnessState => ({ note: null, word: null, confirmed: false, spent: false, screen: null, disagreeSince: null, lastBlockedAt: null, tokens: null });

const ASKS = /permission|needs your (?:attention|approval|input)|wants to|approve/i;

/** The word a note carries, or null when it says nothing about state (auth_success, unknown events). */
export function wordOf(note: HookNote): HookWord | null {
  switch (note.event) {
    case 'Notification': {
      const t = note.notificationType;
      // Gemini CLI 0.61.0 sends `ToolPermission` when its tool approval is drawn.
      if (t === 'permission_prompt' || t === 'elicitation_dialog' || t === 'ToolPermission') return 'needs-input';
      if (t === 'idle_prompt') return 'idle';
      if (t) return null;
      // Versions without notification_type: the message is all there is.
      if (note.message && ASKS.test(note.message)) return 'needs-input';
      if (note.message && /waiting for your input/i.test(note.message)) return 'idle';
      return null;
    }
    case 'UserPromptSubmit':
    case 'BeforeAgent': // Gemini CLI: a prompt was submitted
      return 'working';
    case 'Stop':
    case 'AfterAgent': // Gemini CLI: the turn's final answer is out
      return 'idle';
    // The turn ended in an API error or a usage limit (Claude Code 2.1.78+).
    case 'StopFailure':
      return 'failed';
    case 'SessionEnd':
      return 'ended';
    default:
      return null; // SessionStart: a session began; the screen says what it shows.
  }
}

/** Could not tell: a readable screen no rule recognised (the unclassified bound's case). */
export const couldNotTell = (r: ScreenReading | null): boolean => r !== null && r.readable && r.state === 'unknown';

const showsDialog = (r: ScreenReading | null): boolean => r !== null && r.readable && (r.awaitingInput || r.state === 'blocked');

const claimsInput = (w: WitnessState): boolean => w.word === 'needs-input' && !w.spent;

/** The disagreement the screen and the hook have now (null when they agree or one cannot tell). */
function disagreement(w: WitnessState): { screen: string; hook: HookWord } | null {
  const r = w.screen;
  if (!r || !r.readable || !claimsInput(w)) return null;
  return r.state === 'working' || r.state === 'idle' ? { screen: r.state, hook: 'needs-input' } : null;
}

function track(w: WitnessState, now: number): void {
  if (!disagreement(w)) w.disagreeSince = null;
  else if (w.disagreeSince === null) w.disagreeSince = Math.max(now, w.note?.at ?? now);
}

/** The reading to give the machine: the screen's own, or the hook's word when the screen cannot tell. */
export function readingFor(w: WitnessState): ScreenReading | null {
  const r = w.screen;
  // The screen shows an empty box after a failed turn: where it names no error, the hook's word does.
  if (r && reportsFailure(w) && r.readable && r.state === 'idle' && !r.agentError) {
    return { ...r, agentError: w.note?.message ?? 'the turn ended in an error (StopFailure hook)' };
  }
  if (!r || !couldNotTell(r) || !claimsInput(w)) return r;
  const reason = w.note?.notificationType === 'permission_prompt' || /permission/i.test(w.note?.message ?? '') ? 'permission' : 'question';
  return { ...r, state: 'blocked', awaitingInput: true, blockedReason: reason };
}

/** A StopFailure not yet followed by new work on screen. */
const reportsFailure = (w: WitnessState): boolean => w.word === 'failed' && !w.spent;

/** A screen reading came in: returns the reading to route to the worker's machine. */
export function onScreen(w: WitnessState, reading: ScreenReading, now: number): ScreenReading {
  w.screen = reading;
  // A new turn on screen: the failure the hook reported is over.
  if (reportsFailure(w) && reading.readable && reading.state === 'working') w.spent = true;
  if (showsDialog(reading)) w.lastBlockedAt = now;
  if (claimsInput(w)) {
    if (reading.readable && (reading.awaitingInput || reading.state === 'blocked')) w.confirmed = true;
    else if (w.confirmed && reading.readable && (reading.state === 'working' || reading.state === 'idle')) w.spent = true;
  }
  track(w, now);
  return readingFor(w)!;
}

/** A hook note came in: true when the machine must be given the (substituted) last reading again. */
export function onNote(w: WitnessState, note: HookNote, now: number): boolean {
  if (w.note && note.at < w.note.at) return false; // an older note (from the queue) never overrides a newer word
  const word = wordOf(note);
  w.note = note;
  if (word !== null) {
    w.word = word;
    // The dialog the note speaks of may have been shown, and answered, before the note arrived.
    const shown = w.lastBlockedAt !== null && w.lastBlockedAt >= note.at - LATE_NOTE_MS;
    w.confirmed = showsDialog(w.screen) || shown;
    w.spent = word === 'needs-input' && shown && !showsDialog(w.screen) && !couldNotTell(w.screen);
  }
  track(w, now);
  return (claimsInput(w) && couldNotTell(w.screen)) || (reportsFailure(w) && w.screen?.state === 'idle');
}

export interface WitnessView {
  /** The hooks' latest word (null before any hook reached the daemon). */
  hook: { event: string; word: HookWord | null; message: string | null; at: number } | null;
  /** The hook's message, when the hook's word (not the screen) made the worker blocked. */
  hookReason: string | null;
  /** Screen and hook have disagreed for more than DISPUTE_MS: both readings, and since when. */
  disputed: { screen: string; hook: HookWord; since: number } | null;
  /** Token usage read from the session transcript the hooks named. */
  tokens: TokenUsage | null;
}

export function witnessView(w: WitnessState | undefined, now: number): WitnessView {
  if (!w) return { hook: null, hookReason: null, disputed: null, tokens: null };
  const d = disagreement(w);
  const substituted = claimsInput(w) && couldNotTell(w.screen);
  return {
    hook: w.note ? { event: w.note.event, word: w.word, message: w.note.message ?? null, at: w.note.at } : null,
    hookReason: substituted ? (w.note?.message ?? 'Claude Code asks for input (hook)') : null,
    disputed: d && w.disagreeSince !== null && now - w.disagreeSince >= DISPUTE_MS ? { ...d, since: w.disagreeSince } : null,
    tokens: w.tokens,
  };
}

/** When a disagreement running now becomes a dispute (for a wake-up timer), or null. */
export const disputeDueAt = (w: WitnessState): number | null => (w.disagreeSince === null ? null : w.disagreeSince + DISPUTE_MS);
