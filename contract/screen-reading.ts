/**
 * What one screen says, as the rest of the system knows it: the analysers in io/screen produce
 * it, the worker machine's guards read it, the daemon shows it. Pure data, JSON-serialisable.
 */

export type AgentState = 'working' | 'idle' | 'blocked' | 'exited' | 'unknown';
export type PromptBoxKind = 'empty' | 'typed' | 'suggestion' | 'placeholder';
export type BlockedReason =
  | 'permission'
  | 'question'
  | 'folder-trust'
  | 'onboarding'
  | 'api-key'
  | 'auto-mode'
  | 'bypass-warning'
  | 'menu'
  | 'dialog';

/** Everything the rest of the system knows about one screen. Pure data, JSON-serialisable. */
export interface ScreenReading {
  state: AgentState;
  awaitingInput: boolean;
  blockedReason: BlockedReason | null;
  /** Text in the live input box ('' when empty or a known placeholder); null when no live box is visible. */
  promptBox: string | null;
  promptBoxKind: PromptBoxKind | null;
  /** Widest right-trimmed row >= 40 columns. false = "could not tell": never a stall, never idle. */
  readable: boolean;
  /** 16 lowercase hex of SHA-256 over the normalised screen; '' when unreadable. */
  fingerprint: string;
  /** Last 3 normalised non-empty lines joined with ' | '; '' when unreadable. */
  lastActivity: string;
  /**
   * Idle after a turn that ended in an API error or a usage limit: the message (io/screen/agent-error.ts).
   * Absent or null otherwise (optional: readings from hosts and tests that predate it mean none).
   */
  agentError?: string | null;
  /**
   * The dialog on screen when a person's answer is awaited (io/screen/dialog.ts); null when none
   * or when its options could not be read. Optional: readings stored before it existed lack it.
   */
  dialog?: DialogReading | null;
  /**
   * Background work still running after the turn is over (issue 43; not set while the turn
   * itself runs): how many tasks the screen shows
   * (Claude Code's `✻ Baked for 3s · done 4:21 AM · 1 shell still running`, its footer's
   * `· 2 shells ·`) or the agent's Stop hook listed (actors/witness.ts). A worker with any is at
   * work, never idle or finished. Absent or null: none shown (or a reading from before it).
   */
  background?: number | null;
  /**
   * Idle, but the agent drew its box before the rest of its start screen: it has not finished
   * starting (Gemini CLI before its configuration is loaded — a prompt typed then is queued, and
   * one typed before a resumed conversation is loaded is lost). Only the first prompt waits on
   * it, and only so long (machines/worker.states.starting.ts). Absent: not starting, or not known.
   */
  startingUp?: boolean;
  /**
   * The pane was still pouring when this was read: tmux hushes a pane that keeps drawing between
   * its reads (io/terminal/tmux/pour-hush.ts), so whatever it shows, the screen is moving and no
   * quiet time runs from it. Absent: read while the pane was not pouring, or by a host that cannot tell.
   */
  pouring?: boolean;
}

/** One choice of a dialog, numbered as the screen numbers it (unnumbered lists count from 1). */
export interface DialogOption {
  n: number;
  label: string;
  /** A row that takes typed text (`Type something.`): reached by keys, then written by a send. */
  freeText: boolean;
}

export interface DialogReading {
  /** 16 hex over the dialog's rows with the cursor blanked: the same dialog wherever its cursor is. */
  fingerprint: string;
  reason: string;
  question: string | null;
  options: DialogOption[];
  /** Options drawn with numbers (a digit may select) or not (the trust dialog: arrows + Enter). */
  numbered: boolean;
  /** The option the cursor is on, or null when no cursor was seen. */
  cursor: number | null;
  /** The cursor is on a free-text row: typed text goes into its field, and a send is its answer. */
  textField: boolean;
  /**
   * The options are drawn side by side on one row (OpenCode's permission buttons): the cursor moves
   * with left and right, not up and down. Absent: one option a row.
   */
  across?: boolean;
}

/**
 * The one rule every text send obeys (machine guard and the check at the glass alike): a
 * readable screen that waits on a person takes no text, unless its cursor is in a free-text
 * field (then the text is that field's answer). An unreadable screen fails open (principle 5).
 */
export function textWouldAnswerDialog(r: ScreenReading | null | undefined): boolean {
  if (!r || !r.readable) return false;
  if (!r.awaitingInput && r.state !== 'blocked') return false;
  return r.dialog?.textField !== true;
}
