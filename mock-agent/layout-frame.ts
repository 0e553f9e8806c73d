/**
 * Composes whole frames. Fullscreen (the default, alternate screen): header and transcript from
 * the top, the input area anchored to the bottom rows, the transcript scrolled so its newest rows
 * stay visible. Classic (main screen): everything flows top-down and older rows scroll into the
 * terminal's history, as in the 2.1.332-classic captures.
 */
import {
  boxLines,
  classicFooterLine,
  EFFORT_TEXT,
  footerLine,
  headerLines,
  hintSlot,
  spinnerLine,
  tipLine,
  type BoxView,
  type FooterView,
  type SpinnerView,
} from './layout-chrome.ts';
import {
  permissionLines,
  questionLines,
  slashMenuLines,
  trustLines,
  type PermissionView,
  type QuestionView,
  type SlashCommand,
} from './layout-dialogs.ts';
import { transcriptLines, type Entry } from './layout-transcript.ts';
import { BLANK, COLOUR, ruleLine, truncateLine, type Line } from './style.ts';

export type DialogView = { kind: 'permission'; view: PermissionView } | { kind: 'question'; view: QuestionView };

export interface FrameView {
  cols: number;
  rows: number;
  classic: boolean;
  cwdLabel: string;
  entries: readonly Entry[];
  box: BoxView;
  footer: FooterView;
  spinner: SpinnerView | null;
  dialog: DialogView | null;
  slash: { commands: SlashCommand[]; caret: number } | null;
  showEffort: boolean;
  hint: string | null;
}

function dialogLines(d: DialogView, cols: number): Line[] {
  // The permission dialog keeps one blank row above it; the question menu sits right under the transcript.
  return d.kind === 'permission' ? [BLANK, ...permissionLines(d.view, cols)] : questionLines(d.view, cols);
}

/** Top part scrolled to its newest rows, blank fill, bottom part on the last rows. */
function anchorBottom(top: Line[], bottom: Line[], rows: number): Line[] {
  if (bottom.length >= rows) return bottom.slice(bottom.length - rows);
  const room = rows - bottom.length;
  const shown = top.length > room ? top.slice(top.length - room) : top;
  const fill: Line[] = Array.from({ length: room - shown.length }, () => BLANK);
  return [...shown, ...fill, ...bottom];
}

function fullscreenFrame(v: FrameView, spin: Line | null): Line[] {
  const top = [BLANK, ...headerLines(v.cwdLabel), BLANK, ...transcriptLines(v.entries, v.cols)];
  if (v.dialog) return anchorBottom(top, dialogLines(v.dialog, v.cols), v.rows);
  const bottom: Line[] = [];
  if (v.spinner && spin) bottom.push(BLANK, spin, tipLine(v.spinner.tip));
  if (v.slash) bottom.push(...slashMenuLines(v.slash.commands, v.slash.caret));
  else bottom.push(hintSlot(v.cols, v.showEffort, v.hint));
  bottom.push(ruleLine(v.cols, COLOUR.rule), ...boxLines(v.box, v.cols), ruleLine(v.cols, COLOUR.rule), footerLine(v.footer));
  return anchorBottom(top, bottom, v.rows);
}

function classicFrame(v: FrameView, spin: Line | null): Line[] {
  const lines = [...headerLines(v.cwdLabel), BLANK, ...transcriptLines(v.entries, v.cols, true)];
  if (v.dialog) return [...lines, ...dialogLines(v.dialog, v.cols)];
  if (spin) lines.push(BLANK, spin);
  lines.push(BLANK, ruleLine(v.cols, COLOUR.rule), ...boxLines(v.box, v.cols), ruleLine(v.cols, COLOUR.rule));
  if (v.slash) lines.push(...slashMenuLines(v.slash.commands, v.slash.caret));
  else lines.push(classicFooterLine(v.footer, v.cols, v.hint ?? (v.showEffort ? EFFORT_TEXT : null)));
  return lines;
}

/** The frame, every row cut to the width: a row that wrapped would shift everything below it. */
export function composeFrame(v: FrameView): Line[] {
  return composeFrameRows(v).frame;
}

/** The frame, and which of its rows is the spinner's (-1: none, or scrolled out of the frame). */
export function composeFrameRows(v: FrameView): { frame: Line[]; spinnerRow: number } {
  const spin = v.spinner ? spinnerLine(v.spinner) : null;
  const raw = v.classic ? classicFrame(v, spin) : fullscreenFrame(v, spin);
  return { frame: raw.map((l) => truncateLine(l, v.cols)), spinnerRow: spin ? raw.indexOf(spin) : -1 };
}

/**
 * The frame after a spinner tick, when nothing else changed since `previous` was composed: the
 * same rows with only the spinner's replaced (composing and encoding forty rows ten times a
 * second made each streaming mock cost about 1 % of a core, which starved a 200-worker bench).
 */
export function withSpinner(previous: readonly Line[], spinnerRow: number, v: FrameView): Line[] {
  const frame = previous.slice();
  frame[spinnerRow] = truncateLine(spinnerLine(v.spinner!), v.cols);
  return frame;
}

export function trustFrame(path: string, caret: number, cols: number, rows: number, classic: boolean): Line[] {
  const lines = trustLines(path, caret, cols).map((l) => truncateLine(l, cols));
  return classic ? lines : [BLANK, ...lines].slice(0, Math.max(rows, 1));
}
