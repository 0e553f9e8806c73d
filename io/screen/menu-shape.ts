/**
 * A menu by shape, whatever its words: a cursor row (`❯ 1. Allow`) over at least one more
 * numbered option (`2. Deny (esc)`), wherever it sits and with or without a footer. MCP tool
 * permissions, plan approval and other tool dialogs have no "Esc to cancel" footer in some
 * versions; their numbered choices are the structure every version keeps.
 */
const CURSOR_OPTION = /^\s*[❯>›]\s*(\d{1,2})[.)]\s+\S/u;
const OPTION = /^\s*(\d{1,2})[.)]\s+\S/u;

/** True when `rows` hold a cursor on a numbered option and another numbered option near it. */
export function hasNumberedMenu(rows: readonly string[]): boolean {
  for (let r = 0; r < rows.length; r++) {
    const cursor = CURSOR_OPTION.exec(rows[r]!);
    if (cursor === null) continue;
    const n = Number(cursor[1]);
    // options sit within a few rows (descriptions may hang under each)
    for (let k = Math.max(0, r - 12); k < Math.min(rows.length, r + 13); k++) {
      if (k === r) continue;
      const option = OPTION.exec(rows[k]!);
      if (option !== null && Number(option[1]) !== n && Math.abs(Number(option[1]) - n) <= 9) return true;
    }
  }
  return false;
}

const CURSOR_CHOICE = /^(\s+)[❯›] (\S)/u;
const QUESTION = /\?\s*$/;

/**
 * An unnumbered choice (`  ❯ Yes` / `    No`) under a question: the cursor indented, a sibling
 * option starting in the same column right above or below it, and a row ending in `?` a few
 * rows up. Echoed prompts sit at column 0 and never qualify.
 */
export function hasCursorChoice(rows: readonly string[]): boolean {
  for (let r = 0; r < rows.length; r++) {
    const m = CURSOR_CHOICE.exec(rows[r]!);
    if (m === null) continue;
    const column = m[1]!.length + 2;
    const sibling = (k: number) => {
      const row = rows[k];
      if (row === undefined) return false;
      const lead = row.length - row.trimStart().length;
      return lead === column && row.trim() !== '' && !/^[●⏺⎿]/.test(row.trim());
    };
    if (!sibling(r + 1) && !sibling(r - 1)) continue;
    for (let k = r - 1; k >= Math.max(0, r - 8); k--) if (QUESTION.test(rows[k]!)) return true;
  }
  return false;
}

/** Markers drawn in front of the highlighted option across versions and renderers. */
export const CURSOR_MARKERS = '❯>›▶▸►→';
const MARKED_OPTION = new RegExp(`^\\s*[${CURSOR_MARKERS}]\\s*(\\d{1,2})[.)]\\s+\\S`, 'u');
/** How many non-blank rows from the bottom the options may end (a hint line or two under them). */
const OPTIONS_END_WITHIN = 4;
/** How many non-blank rows above the first option the question may be (a subtitle, a blank). */
const QUESTION_WITHIN = 4;
/** How far up from the bottom the whole dialog may reach. */
const DIALOG_ROWS = 24;

/**
 * A question line followed by numbered option rows, one with a cursor marker, near the bottom
 * (issue 21): a dialog even without an "Enter to select" footer. Numbering starts at 1 and goes up
 * by one; descriptions may hang between options; the question (a row ending in `?`) sits just
 * above the first option.
 */
export function hasQuestionOverOptions(rows: readonly string[]): boolean {
  const lines: string[] = [];
  for (let r = rows.length - 1; r >= 0 && lines.length < DIALOG_ROWS; r--) if (rows[r]!.trim() !== '') lines.unshift(rows[r]!);
  let lastOption = -1;
  for (let i = lines.length - 1; i >= 0; i--) if (OPTION.test(lines[i]!) || MARKED_OPTION.test(lines[i]!)) { lastOption = i; break; }
  if (lastOption === -1 || lines.length - 1 - lastOption >= OPTIONS_END_WITHIN) return false;
  let expect = 0;
  let marked = false;
  let first = -1;
  for (let i = lastOption; i >= 0; i--) {
    const m = MARKED_OPTION.exec(lines[i]!) ?? OPTION.exec(lines[i]!);
    if (m === null) continue;
    const n = Number(m[1]);
    if (expect !== 0 && n !== expect) return false;
    if (MARKED_OPTION.test(lines[i]!)) marked = true;
    first = i;
    expect = n - 1;
    if (n === 1) break;
  }
  if (!marked || expect !== 0 || first === lastOption) return false;
  for (let i = first - 1; i >= Math.max(0, first - QUESTION_WITHIN); i--) if (QUESTION.test(lines[i]!)) return true;
  return false;
}

/** The first and the refusing choice of an approval, in every release's words. */
const ACCEPTING = /^(?:Yes|Allow|Approve|Proceed)\b/;
const REFUSING = /^(?:No|Deny|Reject|Don't|Do not)\b/;

/**
 * An approval's options at the bottom of the live rows, whatever else is drawn: numbered 1 to n
 * (n ≥ 2) in order, the first accepting (`1. Yes`, `1. Allow`), one refusing (`4. No`, `2. Deny`),
 * the last within a few rows of the bottom — with or without a cursor glyph (a colour-only
 * highlight leaves none in the text), a question (cut off above a short pane) or a footer. These
 * options are the one part every release's permission dialog keeps (issue 39).
 */
export function hasAnswerOptions(rows: readonly string[]): boolean {
  const lines: string[] = [];
  for (let r = rows.length - 1; r >= 0 && lines.length < DIALOG_ROWS; r--) if (rows[r]!.trim() !== '') lines.unshift(rows[r]!);
  let last = -1;
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - OPTIONS_END_WITHIN); i--) {
    if (MARKED_OPTION.test(lines[i]!) || OPTION.test(lines[i]!)) { last = i; break; }
  }
  if (last === -1) return false;
  const labels: string[] = [];
  let expect = 0;
  for (let i = last; i >= 0; i--) {
    const m = /^\s*(?:[❯>›▶▸►→]\s*)?(\d{1,2})[.)]\s+(\S.*)$/u.exec(lines[i]!);
    if (m === null) continue; // a description hanging under an option
    const n = Number(m[1]);
    if (expect !== 0 && n !== expect) return false;
    labels.unshift(m[2]!.trim());
    expect = n - 1;
    if (n === 1) break;
  }
  if (expect !== 0 || labels.length < 2) return false;
  return ACCEPTING.test(labels[0]!) && labels.slice(1).some((l) => REFUSING.test(l));
}
