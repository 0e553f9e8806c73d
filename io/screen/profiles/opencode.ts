/**
 * How OpenCode (1.17.19, 1.18.33; corpus in tests/fixtures/opencode-corpus/) looks on screen. Its
 * TUI draws panels with a heavy left bar (`┃`) on a background colour, and its dialect differs from
 * Claude Code's in places the core is told about through the spec's hooks:
 *  - the composer: a `┃` panel — a padding row, the input rows (` ┃  text`, a long paste folded
 *    into `[Pasted ~N lines]`), a padding row, the agent row (`┃  Build · <model> <provider>`) —
 *    closed by its bottom edge `╹▀▀▀…`, with one status row under it: the session's place and
 *    `ctrl+p commands` when idle, a block spinner (`■■⬝⬝`) and `esc interrupt` while a turn runs.
 *    An echoed prompt in the transcript is a `┃` panel too: only the agent row and the bottom edge
 *    under it make one the live box. The empty box of a new session shows an example
 *    (`Ask anything… "Fix broken tests"`, `Ask anything...` in 1.17);
 *  - dialogs replace the composer: a permission (`△ Permission required`, the command or the
 *    file, then the buttons `Allow once   Allow always   Reject` side by side, the chosen one
 *    drawn on a colour of its own, moved with ←/→) and a question (numbered options whose cursor is
 *    only a colour, moved with ↑/↓, `Type your own answer` last). Neither draws a cursor glyph, so
 *    their options are read here, from the cells' colours (readDialog);
 *  - `/exit` leaves the alternate screen and prints the logo, `Session <title>` and
 *    `Continue  opencode -s <id>`.
 */
import { createHash } from 'node:crypto';
import type { BlockerRule, PromptBoxReading, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { FoundBox, ScreenLayout } from '../layout.ts';
import type { DialogOption, DialogReading, ScreenRow } from '../types.ts';
import { attrsAt, isRed } from './opencode-cells.ts';
import { turnPending } from './opencode-turn-pending.ts';

/** The versions whose captures the reader is scored on (tests/fixtures/opencode-corpus/), oldest first. */
export const OPENCODE_CORPUS_VERSIONS: readonly string[] = ['1.17.19', '1.18.33'];

/** The example the empty box of a new session shows, anchored at both ends. */
export const OPENCODE_PLACEHOLDERS: readonly RegExp[] = [/^Ask anything(?:…|\.\.\.)(?:\s+".*")?$/];

export const OPENCODE_BOX: PromptBoxSpec = { prefix: '┃  ', glyphs: '┃', frame: '', placeholders: OPENCODE_PLACEHOLDERS };

/** Most specific first: the first matching rule names the reason. */
export const OPENCODE_BLOCKERS: readonly BlockerRule[] = [
  { reason: 'permission', anyOf: ['Permission required'], allOf: ['Allow once'] },
  // Allow always asks again before it widens the rules for the rest of the run.
  { reason: 'permission', anyOf: ['Always allow'], allOf: ['Confirm', 'Cancel'] },
  // The question tool: its footer (`↑↓ select  enter submit  esc dismiss`).
  { reason: 'question', anyOf: ['enter submit', 'esc dismiss'] },
];

const BAR = /^(\s*)┃/;
const BOTTOM = /^\s*╹▀{10,}/;
/** The agent row closing the composer: the agent's name, a dot, the model. */
const AGENT_ROW = /^\s*┃\s{2}\S.*\s·\s\S/;
const RUNNING = /\besc (?:again to )?interrupt\b/;
const SPINNER = /^\s*[■⬝]{4,}/;

/** The row of the composer's bottom edge, or -1. */
function bottomEdge(texts: readonly string[]): number {
  for (let r = texts.length - 1; r >= 0; r--) if (BOTTOM.test(texts[r]!)) return r;
  return -1;
}

/** The composer: the `┃` panel whose last row is the agent row right above the bottom edge. */
function findBox(texts: readonly string[]): FoundBox | null {
  const edge = bottomEdge(texts);
  if (edge < 1 || !AGENT_ROW.test(texts[edge - 1]!)) return null;
  const agentRow = edge - 1;
  let top = agentRow;
  while (top > 0 && BAR.test(texts[top - 1]!)) top--;
  // The panel: a padding row, the input rows, a padding row, the agent row.
  const first = top + 1;
  const last = agentRow - 2;
  if (last < first) return null;
  const bar = texts[first]!.indexOf('┃');
  return { row: first, start: bar + 3, lastRow: last, chromeTop: top };
}

function readBox(layout: ScreenLayout): PromptBoxReading | null {
  if (layout.boxRow === -1) return null;
  const parts: string[] = [];
  for (let r = layout.boxRow; r <= layout.boxLastRow; r++) parts.push(layout.texts[r]!.replace(BAR, '$1 ').trim());
  const text = parts.join('\n').trim();
  if (text === '') return { text: '', kind: 'empty' };
  if (OPENCODE_PLACEHOLDERS.some((p) => p.test(text))) return { text: '', kind: 'placeholder' };
  return { text, kind: 'typed' };
}

function isWorking(layout: ScreenLayout): boolean {
  const { texts } = layout;
  const edge = bottomEdge(texts);
  if (edge !== -1) {
    const status = texts[edge + 1] ?? '';
    // Taken but not begun: the prompt is the transcript's last message before any spinner shows.
    return RUNNING.test(status) || SPINNER.test(status) || turnPending(layout);
  }
  for (let r = texts.length - 1; r >= Math.max(0, texts.length - 4); r--) if (RUNNING.test(texts[r]!)) return true;
  return false;
}

/** What `/exit` prints after the session: `Continue  opencode -s ses_…`. */
const EXIT_LINE = /^\s*Continue\s+opencode\s+(?:-s|--session)\s+\S+/;

function isExited(layout: ScreenLayout): boolean {
  if (layout.boxRow !== -1) return false;
  return layout.texts.some((t) => EXIT_LINE.test(t));
}

/**
 * A turn that ended in an error: OpenCode draws the error under the last prompt as a panel of its
 * own whose bar is red (1.17.19, 1.18.33: `┃  fake: this request is refused`, the provider's
 * message), then the turn's footer (`▣  Build · <model>`), then an empty composer — which
 * otherwise reads as a finished turn. Read as the last entry above the composer: blank rows and
 * the footer are passed over; the panel found there decides by its bar's colour.
 */
const TURN_FOOTER = /^\s*▣\s/;
const ERROR_ROW = /^\s*┃\s{2}(?:Error:\s*)?(\S.*?)\s*$/;
function turnError(layout: ScreenLayout): string | null {
  if (layout.boxRow < 0) return null;
  const { screen, texts } = layout;
  let r = (layout.chromeTop ?? layout.boxRow) - 1;
  while (r >= 0 && (texts[r]!.trim() === '' || TURN_FOOTER.test(texts[r]!))) r--;
  const end = r;
  while (r >= 0 && BAR.test(texts[r]!)) r--;
  for (let k = r + 1; k <= end; k++) {
    const line = screen.lines[k];
    const m = ERROR_ROW.exec(texts[k]!);
    if (m && line && barIsError(line)) return m[1]!;
  }
  return null;
}

/** The bar of an error panel is drawn in red (a colour whose red part dominates). */
function barIsError(line: ScreenRow): boolean {
  const fg = attrsAt(line, line.text.indexOf('┃'))?.fg;
  return fg !== undefined && isRed(fg);
}

/**
 * The cursor drawn as a colour: of the options' cells, the one index whose background differs
 * from the panel's own (the cell right of the bar), or null when none or several do.
 */
function colouredOne(line: ScreenRow | undefined, cols: readonly number[], lines?: readonly (ScreenRow | undefined)[]): number | null {
  const rows = lines ?? cols.map(() => line);
  const marked: number[] = [];
  for (let i = 0; i < cols.length; i++) {
    const row = rows[i];
    if (!row) return null;
    const panel = attrsAt(row, row.text.indexOf('┃') + 1)?.bg ?? '';
    if ((attrsAt(row, cols[i]!)?.bg ?? '') !== panel) marked.push(i);
  }
  return marked.length === 1 ? marked[0]! : null;
}

const FREE_TEXT = /^Type your own answer$/;
const NUMBERED = /^\s*┃\s+(\d{1,2})\.\s+(\S.*?)\s*$/;
/** Key hints after the buttons (`ctrl+f fullscreen  ⇆ select  enter confirm`). */
const HINT = /^(?:ctrl\+|⇆|enter\b|esc\b|tab\b)/;
/** A row drawn of block glyphs only (the diff's frame before its lines). */
const BLOCKS_ONLY = /^[▀▄█▌▐░▒▓\s]+$/;

const unbar = (t: string): string => t.replace(BAR, '$1 ').trim();
const fingerprintOf = (reason: string, rows: readonly string[]): string => createHash('sha256').update(`${reason}\n${rows.join('\n')}`, 'utf8').digest('hex').slice(0, 16);

/**
 * The buttons' row: `Allow once   Allow always   Reject`, or, after Allow always, its confirmation
 * (`△ Always allow`, `This will allow edit until OpenCode is restarted.`, `Confirm   Cancel`).
 */
const BUTTON_ROW = /Allow once|\bConfirm {2,}Cancel\b/;
const TITLE = /△\s+(Permission required|Always allow)\s*$/;

/** The permission dialog: its buttons side by side on one row, the chosen one on a colour of its own. */
function readPermission(layout: ScreenLayout, reason: string): DialogReading | null {
  const { texts, screen } = layout;
  let buttons = -1;
  for (let r = texts.length - 1; r >= 0; r--) if (BUTTON_ROW.test(texts[r]!) && BAR.test(texts[r]!)) { buttons = r; break; }
  if (buttons === -1) return null;
  let title = -1;
  let head = 'Permission required';
  for (let r = buttons - 1; r >= 0; r--) {
    const m = TITLE.exec(texts[r]!);
    if (m) { title = r; head = m[1]!; break; }
  }
  const row = texts[buttons]!;
  const options: DialogOption[] = [];
  const columns: number[] = [];
  const re = /\S+(?: \S+)*/g;
  for (let m = re.exec(row); m !== null; m = re.exec(row)) {
    if (m[0] === '┃') continue;
    if (HINT.test(m[0])) break;
    options.push({ n: options.length + 1, label: m[0], freeText: false });
    columns.push(m.index);
  }
  if (options.length < 2) return null;
  const cursor = screen.hasAttributes ? colouredOne(screen.lines[buttons], columns) : null;
  const body = (title === -1 ? [] : texts.slice(title, buttons + 1)).map(unbar);
  // What is asked: the kind (`# Shell command`, `→ Edit <path>`) and its command, as drawn. An
  // edit's diff is drawn a frame after its title (a row of `▀` first): neither is what is asked.
  const details = body.slice(1, -1).filter((t) => t !== '' && !/^\d+\s+[+-]/.test(t) && !BLOCKS_ONLY.test(t)).slice(0, 2).map((t) => t.replace(/^#\s+/, ''));
  const question = details.length ? `${head}: ${details.join(' — ')}` : head;
  return {
    // Over what is asked and the buttons, not every row: the diff under an edit's question fills
    // in after the dialog is first seen, and a fingerprint of it changed between hand wait and
    // hand answer (seen against 1.18.33), refusing every answer to an edit.
    fingerprint: fingerprintOf(reason, [question, ...options.map((o) => o.label)]),
    reason,
    question,
    options,
    numbered: false,
    cursor: cursor === null ? null : cursor + 1,
    textField: false,
    across: true,
  };
}

/** The question dialog: numbered options in a panel, the cursor only a colour on the option's number. */
function readQuestion(layout: ScreenLayout, reason: string): DialogReading | null {
  const { texts, screen } = layout;
  const found: { row: number; n: number; label: string }[] = [];
  for (let r = 0; r < texts.length; r++) {
    const m = NUMBERED.exec(texts[r]!);
    if (!m) continue;
    if (Number(m[1]) === 1) found.length = 0;
    found.push({ row: r, n: Number(m[1]), label: m[2]! });
  }
  if (found.length < 2) return null;
  const cursor = screen.hasAttributes ? colouredOne(undefined, found.map((f) => texts[f.row]!.search(/\d/)), found.map((f) => screen.lines[f.row])) : null;
  let question: string | null = null;
  let top = found[0]!.row;
  for (let r = found[0]!.row - 1; r >= 0 && BAR.test(texts[r]!); r--) {
    top = r;
    const t = unbar(texts[r]!);
    if (question === null && t !== '') question = t;
  }
  const last = found.at(-1)!.row;
  const body = texts.slice(top, last + 1).map(unbar);
  return {
    fingerprint: fingerprintOf(reason, body),
    reason,
    question,
    options: found.map((f) => ({ n: f.n, label: f.label, freeText: FREE_TEXT.test(f.label) })),
    numbered: true,
    cursor: cursor === null ? null : found[cursor]!.n,
    textField: cursor !== null && FREE_TEXT.test(found[cursor]!.label),
  };
}

function readDialog(layout: ScreenLayout, reason: string): DialogReading | null {
  return reason === 'permission' ? readPermission(layout, reason) : readQuestion(layout, reason);
}

export const opencodeSpec: ScreenProfileSpec = {
  name: 'opencode',
  box: OPENCODE_BOX,
  blockers: OPENCODE_BLOCKERS,
  isWorking,
  isExited,
  findBox,
  readBox,
  turnError,
  readDialog,
};
