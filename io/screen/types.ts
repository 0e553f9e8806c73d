/**
 * The screen model shared by every terminal host and every analyser.
 * A Screen is the VISIBLE viewport only (never scrollback: principle 1 of DESIGN.md).
 */

/** SGR attributes of one cell. Colours are kept as the SGR text that set them ("38;5;244", "39", ...). */
export interface CellAttributes {
  dim?: boolean;
  bold?: boolean;
  inverse?: boolean;
  italic?: boolean;
  underline?: boolean;
  fg?: string;
  bg?: string;
}

/** A run of characters on one row that share attributes. */
export interface Span {
  text: string;
  attrs: CellAttributes;
}

export interface ScreenRow {
  /** The row's text, right-trimmed of plain spaces (U+0020) only: a trailing U+00A0 is kept. */
  text: string;
  /** Present when the source carried attributes (tmux capture-pane -e, xterm cells). */
  spans?: Span[];
  /**
   * Column (UTF-16 offset) of an inverse cell the right-trim removed: an app's own cursor drawn
   * after blanks. Only what the trim cut is recorded; it is how blanks in a box are seen.
   */
  cursorAt?: number;
}

export interface Screen {
  cols: number;
  rows: number;
  /** Exactly the visible rows, top to bottom (length <= rows; missing rows are blank). */
  lines: ScreenRow[];
  /** True when per-cell attributes were available for this capture. */
  hasAttributes: boolean;
}

export type { AgentState, PromptBoxKind, BlockedReason, ScreenReading, DialogOption, DialogReading } from '../../contract/screen-reading.ts';
import type { ScreenReading } from '../../contract/screen-reading.ts';

/** How an agent draws its live input box (a profile's part the layout needs too). */
export interface PromptBoxSpec {
  /** What starts the live input row after leading whitespace/frame, e.g. `❯` + U+00A0. */
  prefix: string;
  /**
   * Prompt glyphs of every version (`❯`, older `>`): glyph + U+00A0 is the box anywhere; the
   * glyph alone is the empty box only between two rules (a trimmed NBSP).
   */
  glyphs: string;
  /** Frame characters trimmed around the row (custom status lines draw `│` sides). */
  frame: string;
  /** Placeholder hints that mean "empty" (anchored, whole-text). Anything else is content. */
  placeholders: readonly RegExp[];
  /**
   * Where the live box is, for an agent whose box has neither rules nor a glyph + U+00A0 to find
   * it by (Codex CLI draws `›` + a plain space, as it does for echoed prompts): row and the
   * offset where its content starts, or null when no live box is visible. Absent: the shared
   * structural reading applies.
   */
  locate?(texts: readonly string[]): { row: number; start: number } | null;
}

/** An agent profile: how to read its screen. Data plus small pure functions. */
export interface AgentScreenProfile {
  name: string;
  analyse(screen: Screen): ScreenReading;
}
