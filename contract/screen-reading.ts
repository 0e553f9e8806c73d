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
}
