/**
 * A turn OpenCode has taken but not yet begun on screen. On Enter it opens the session view at
 * once (1.18.33): the prompt becomes the transcript's last message, a `┃` panel, and the composer
 * under it is empty — while its status row still shows the idle `ctrl+p commands`. Only later
 * (measured up to 1.6 s on a loaded machine) does the turn's spinner come, and with the reply
 * its footer (`▣  Build · <model>`, drawn while the reply streams and kept after it). A screen
 * read idle in that gap let the worker be called settled before its turn had begun.
 *
 * So: the live composer, and the last entry above it (blank rows passed over) is a user's
 * message — nothing after it, not even the footer an assistant message always draws, including an
 * interrupted one (`▣ … · interrupted`) and one that ended in an error (a red panel, then the
 * footer) — is a turn still pending, read as working. A dialog replaces the composer, so no
 * screen with one is matched here (and blocked beats working anyway).
 *
 * A user's message is told from the transcript's other panels by colour, as nothing else tells
 * them apart: its bar is drawn in the agent's colour outside the panel (the bar cell's background
 * is the screen's, the text beside it on the panel's colour). A tool's block draws its bar on the
 * panel's own colour and an error's bar is red. Without the cells' colours (a plain capture; the
 * daemon always reads them) the rule does not apply: the reading stays what it was.
 */
import type { ScreenLayout } from '../layout.ts';
import { attrsAt, isRed } from './opencode-cells.ts';

const BAR = /^(\s*)┃/;
/** A panel row with text in it (its padding rows are trimmed to the bar alone). */
const TEXT_ROW = /^\s*┃\s{2}\S/;

export function turnPending(layout: ScreenLayout): boolean {
  const { screen, texts } = layout;
  if (layout.boxRow < 0 || !screen.hasAttributes) return false;
  let r = (layout.chromeTop ?? layout.boxRow) - 1;
  while (r >= 0 && texts[r]!.trim() === '') r--;
  // Assistant text or its footer last (or nothing at all: the start view): not pending.
  if (r < 0 || !BAR.test(texts[r]!)) return false;
  const end = r;
  while (r >= 0 && BAR.test(texts[r]!)) r--;
  let rows = 0;
  for (let k = r + 1; k <= end; k++) {
    if (!TEXT_ROW.test(texts[k]!)) continue;
    if (!isUserMessageRow(layout, k)) return false;
    rows++;
  }
  return rows > 0;
}

/** The bar in a colour of its own, on the screen's background, beside text on the panel's colour. */
function isUserMessageRow(layout: ScreenLayout, row: number): boolean {
  const line = layout.screen.lines[row];
  if (!line) return false;
  const col = line.text.indexOf('┃');
  const bar = attrsAt(line, col);
  const text = attrsAt(line, col + 1);
  if (!bar?.fg || !bar.bg || !text?.bg) return false;
  return !isRed(bar.fg) && bar.bg !== text.bg && sameColour(bar.fg) !== sameColour(text.bg);
}

/** `38;5;233` and `48;5;233` name one colour: compare a foreground with a background. */
function sameColour(sgr: string): string {
  return sgr.replace(/^[34]8;/, '');
}
