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
