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
  /**
   * The agent's own word that its turn ended (Stop, AfterAgent, Codex's notify) and whether the
   * screen has agreed since: the fingerprint of the first screen after the word with the live box
   * back, nothing awaited and no turn running (null until one shows). Gone (null) once it no
   * longer speaks for the screen: input went in after it, a new turn began (UserPromptSubmit,
   * BeforeAgent, a dialog's notice), or the screen moved on from the one that agreed.
   */
  turnEnd: { at: number; screen: string | null } | null;
  /** When we last typed or pressed anything into the pane (a word older than that is about an earlier turn). */
  inputAt: number | null;
  /**
   * Background tasks the agent's last turn-end hook listed as still in flight (Claude Code's Stop
   * `background_tasks`, issue 43); 0 when it listed none, or no such hook has spoken. Renewed by
   * every later Stop (the turn the agent starts when a task ends brings the new list).
   */
  background: number;
}

/** A hook runs as its dialog paints; its note may reach the daemon this much later (a Node start-up). */
export const LATE_NOTE_MS = 3000;

export const newWitness = (): WitnessState => ({ note: null, word: null, confirmed: false, spent: false, screen: null, disagreeSince: null, lastBlockedAt: null, tokens: null, turnEnd: null, inputAt: null, background: 0 });

/** A turn-end hook that lists background work still in flight: the session is paused, not done (issue 43). */
const leavesBackground = (note: HookNote): boolean => (note.backgroundTasks ?? 0) > 0;

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
      // With background work listed the agent waits for it to wake the session: still at work.
      return leavesBackground(note) ? 'working' : 'idle';
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
  // The box is back, but the agent said background work it started still runs: at work, never
  // idle (so never settled or done), with the larger of the two counts.
  if (r && w.background > 0 && boxBack(r)) return { ...r, state: 'working', background: Math.max(r.background ?? 0, w.background) };
  // The screen shows an empty box after a failed turn: where it names no error, the hook's word does.
  if (r && reportsFailure(w) && r.readable && r.state === 'idle' && !r.agentError) {
    return { ...r, agentError: w.note?.message ?? 'the turn ended in an error (StopFailure hook)' };
  }
  // The box is back with no turn running and no dialog, but the screen cannot tell whether the
  // turn above it is over (a Codex release that draws neither): the agent's own word decides.
  if (r && couldNotTell(r) && turnEndWitnessed(w)) return { ...r, state: 'idle' };
  if (!r || !couldNotTell(r) || !claimsInput(w)) return r;
  const reason = w.note?.notificationType === 'permission_prompt' || /permission/i.test(w.note?.message ?? '') ? 'permission' : 'question';
  return { ...r, state: 'blocked', awaitingInput: true, blockedReason: reason };
}

/** A StopFailure not yet followed by new work on screen. */
const reportsFailure = (w: WitnessState): boolean => w.word === 'failed' && !w.spent;

/** A screen reading came in: returns the reading to route to the worker's machine. */
export function onScreen(w: WitnessState, reading: ScreenReading, now: number): ScreenReading {
  w.screen = reading;
  followTurnEnd(w, reading);
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
  if (TURN_END_EVENTS.has(note.event) || note.event === 'StopFailure' || note.event === 'SessionEnd') w.background = note.backgroundTasks ?? 0;
  if (TURN_END_EVENTS.has(note.event) && !leavesBackground(note)) {
    // About an earlier turn when input went in after it ran: the screen's quiet time decides then.
    const stale = w.inputAt !== null && note.at < w.inputAt;
    w.turnEnd = stale ? null : { at: note.at, screen: boxBack(w.screen) ? w.screen!.fingerprint : null };
  } else if (word !== null && word !== 'idle') {
    w.turnEnd = null; // a new turn began, a dialog asks, or the turn failed
  }
  if (word !== null) {
    w.word = word;
    // The dialog the note speaks of may have been shown, and answered, before the note arrived.
    const shown = w.lastBlockedAt !== null && w.lastBlockedAt >= note.at - LATE_NOTE_MS;
    w.confirmed = showsDialog(w.screen) || shown;
    w.spent = word === 'needs-input' && shown && !showsDialog(w.screen) && !couldNotTell(w.screen);
  }
  track(w, now);
  return (claimsInput(w) && couldNotTell(w.screen)) || (reportsFailure(w) && w.screen?.state === 'idle') || turnEndWitnessed(w) || (w.background > 0 && boxBack(w.screen));
}

/** The events that say the agent's turn is over: Claude Code's Stop, Gemini CLI's AfterAgent, Codex's notify (`hand hook Stop`). */
const TURN_END_EVENTS = new Set(['Stop', 'AfterAgent']);

/**
 * The screen agrees that a turn is over: readable, the live box back, nothing awaited, and no
 * turn running on it (idle, or could-not-tell with the box back: a turn that may be over).
 */
function boxBack(r: ScreenReading | null): boolean {
  return r !== null && r.readable && r.promptBox !== null && !r.awaitingInput && (r.state === 'idle' || r.state === 'unknown');
}

function followTurnEnd(w: WitnessState, r: ScreenReading): void {
  const end = w.turnEnd;
  if (end === null || !r.readable) return;
  if (end.screen === null) {
    // The agent keeps its spinner while its Stop hook runs (Claude Code 2.1.332: `running Stop
    // hook`): a running turn before the agreeing screen is the same turn ending.
    if (boxBack(r)) end.screen = r.fingerprint;
  } else if (r.fingerprint !== end.screen || !boxBack(r)) {
    w.turnEnd = null; // the screen moved on from the end it agreed with: new work, typed text, a dialog
  }
}

/**
 * Input went into the pane (a send, a key, the first prompt, teardown's /exit): a turn-end word
 * from before it speaks of an earlier turn.
 */
export function onInput(w: WitnessState, at: number): void {
  w.inputAt = at;
  if (w.turnEnd !== null && w.turnEnd.at < at) w.turnEnd = null;
}

/**
 * The agent said its turn ended and the screen shows that end now: the live box back, no turn
 * running, no dialog, and the same screen as the first that agreed after the word. A worker may
 * settle on it at once, without the quiet window (which stays for agents and moments without it).
 */
export function turnEndWitnessed(w: WitnessState): boolean {
  const end = w.turnEnd;
  return end !== null && end.screen !== null && w.screen !== null && w.screen.fingerprint === end.screen && boxBack(w.screen);
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
