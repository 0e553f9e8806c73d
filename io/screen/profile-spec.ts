/**
 * What an agent profile tells the core analysers: strings and small pure predicates. The core
 * (layout, prompt box, blockers, fingerprint, state order) knows no agent; adding Codex or Gemini
 * CLI means writing one more spec under profiles/ and registering it.
 */
import type { AgentScreenProfile, BlockedReason, DialogReading, PromptBoxSpec, Screen } from './types.ts';
import type { LayoutHooks, ScreenLayout } from './layout.ts';

export type { PromptBoxSpec } from './types.ts';

/**
 * One dialog signature. Matches when every `allOf` needle and at least one `anyOf` needle occur
 * (ordinal, case-sensitive) in the live region. Rules are tried in order; the first names the reason.
 */
export interface BlockerRule {
  reason: BlockedReason;
  anyOf: readonly string[];
  allOf?: readonly string[];
  /** Words too common to count alone (`wants to`): they only name the reason of a numbered menu. */
  needsMenu?: boolean;
  /** Words whose presence means the rule does not apply (a footer whose dialog is gone). */
  noneOf?: readonly string[];
}

export interface ScreenProfileSpec extends LayoutHooks {
  name: string;
  aliases?: readonly string[];
  box: PromptBoxSpec;
  blockers: readonly BlockerRule[];
  /** A turn is running (footer hint, live spinner line). */
  isWorking(layout: ScreenLayout): boolean;
  /**
   * The live box is back and no status line shows, but the screen cannot tell whether the turn
   * above it is over (a Codex release that hides its status line while a reply streams and draws
   * no end line under a finished turn: both are the same screen). The reading is then "could not
   * tell" (state unknown, the box still read): the agent's own turn-end word, the witness,
   * decides (actors/witness.ts). Absent: never.
   */
  turnUndecided?(layout: ScreenLayout): boolean;
  /**
   * The row the live agent draws last, under its box and status lines (Claude Code's mode line):
   * column-0 text with it still drawn below is the agent's own status line, not the shell's
   * output after an exit (box-left-behind.ts). Absent: any column-0 text below the box is.
   */
  liveFooter?: RegExp;
  /** The agent's own exit hint is on screen. */
  isExited(layout: ScreenLayout): boolean;
  /**
   * Can the screen be read at all; absent: the shared width rule (a row of 40+ columns). For an
   * agent whose idle screen has no wide row (Codex CLI draws no rules), its own one-line hints
   * drawn whole prove the pane is wide enough.
   */
  isReadable?(screen: Screen, wideEnough: boolean): boolean;
  /**
   * The message of the error that ended the last turn, on an idle screen; absent: Claude Code's
   * reading (io/screen/agent-error.ts). Another CLI prints its errors its own way.
   */
  turnError?(layout: ScreenLayout): string | null;
  /**
   * The variant for one agent version (its `name` says which era, e.g. `claude@2.0.0`); absent
   * or undefined = this spec reads every version.
   */
  forVersion?(version: string): ScreenProfileSpec | undefined;
  /**
   * How many background tasks the screen shows still running after the turn (Claude Code's
   * `· 1 shell still running`); absent: the agent draws none we know of.
   */
  backgroundTasks?(layout: ScreenLayout): number;
  /**
   * On an idle screen: the agent drew its box before the rest of its start screen, so it has not
   * finished starting (ScreenReading.startingUp). Absent: the agent draws nothing of the kind.
   */
  startingUp?(layout: ScreenLayout): boolean;
  /** The box's text and kind, for an agent whose hints are not drawn dim; absent: the core's reader. */
  readBox?(layout: ScreenLayout): PromptBoxReading | null;
  /**
   * The dialog on a blocked screen, for an agent whose dialogs draw no cursor glyph (OpenCode: its
   * choices are coloured, its permission buttons side by side); absent: the core's reader (dialog.ts).
   */
  readDialog?(layout: ScreenLayout, reason: string): DialogReading | null;
}

export interface PromptBoxReading {
  /** '' when empty or a known placeholder. */
  text: string;
  kind: 'empty' | 'typed' | 'suggestion' | 'placeholder';
}

/** A registered profile: the shared contract plus the box reader the send guards need. */
export interface ScreenProfile extends AgentScreenProfile {
  readonly spec: ScreenProfileSpec;
  readPromptBox(screen: Screen): PromptBoxReading | null;
}
