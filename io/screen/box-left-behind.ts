/**
 * A box that is a leftover drawing, not an input (issue 21): after `/exit` the classic renderer
 * (1.x, 2.0-era and some 2.1 releases) leaves its last frame — an empty box and its footer — on
 * screen, and the shell writes below it: the cost summary, `Resume this session with:`, a shell
 * prompt. What is below the box says the agent is gone. Read by structure, for every agent that
 * draws its box between rules: the agent's own rows under the box's closing rule (footer, status
 * lines, menus) are indented by its layout's padding; a row starting at column 0 with text that
 * is not a rule or frame was written after the app let go of the terminal.
 */
import type { ScreenLayout } from './layout.ts';
import { frameEdge, isRule } from './box-structure.ts';
import { isTrimSpace } from './whitespace.ts';

/** Box-drawing characters (rules, frames, dashed lines): chrome, never text. */
const BOX_DRAWING = /^[\u2500-\u257f]/;

/**
 * True when the live-looking box has rows below its closing rule that the agent did not draw.
 * `liveFooter`: the profile's own last row (Claude Code's mode line, `⏵⏵ auto mode on …`). A
 * column-0 row with that footer still drawn under it is the agent's too — a custom status line
 * (a person's `statusLine` command prints flush left) — because after an exit the shell writes
 * below the last frame, never above the agent's footer.
 */
export function boxLeftBehind(layout: ScreenLayout, liveFooter?: RegExp): boolean {
  const { boxRow, boxLastRow, texts } = layout;
  if (boxRow === -1) return false;
  const closing = boxLastRow + 1;
  // Only a box closed by its own rule has a "below": without one the extent is unknown.
  if (closing >= texts.length || !(isRule(texts[closing]!) || frameEdge(texts[closing]!) !== null)) return false;
  for (let r = closing + 1; r < texts.length; r++) {
    const text = texts[r]!;
    if (text.length === 0 || isTrimSpace(text.charCodeAt(0))) continue; // blank or indented: the agent's
    if (isRule(text) || frameEdge(text) !== null || BOX_DRAWING.test(text)) continue;
    if (liveFooter !== undefined && footerBelow(texts, r + 1, liveFooter)) continue;
    return true;
  }
  return false;
}

function footerBelow(texts: readonly string[], from: number, footer: RegExp): boolean {
  for (let r = from; r < texts.length; r++) if (footer.test(texts[r]!)) return true;
  return false;
}
