/**
 * Which rows can hold a prompt that waits on a person. Claude Code unmounts its input box while a
 * dialog is up, so with a live box on screen only the rows below it (footer forms) are live.
 * Without one, the dialog sits below the last turn — the echoed prompt (`❯ text`, `> text` in
 * 2.0) that has turn content after it — and history above that turn is never live: a stale
 * permission prompt from an earlier turn must not read as blocked.
 */
import type { ScreenLayout } from './layout.ts';

/** An echoed prompt: the glyph at column 0, a plain space, text that is not a numbered option. */
const ECHO = /^[❯>] (?!\s*\d{1,2}[.)]\s)\S/;
/** What a turn draws after its prompt: a reply or tool bullet, a tool result, a spinner line. */
const TURN_CONTENT = /^(?:[●⏺]\s|\s+⎿\s|[·✢*✶✻✽✳∗]\s+\S)/;

/** Row index just after the last echoed prompt that has turn content below it, or 0. */
export function lastTurnStart(texts: readonly string[], end: number): number {
  let content = false;
  for (let r = end - 1; r >= 0; r--) {
    const text = texts[r]!;
    if (content && ECHO.test(text)) return r + 1;
    if (TURN_CONTENT.test(text)) content = true;
  }
  return 0;
}

/**
 * A row drawn inside a frame (`│ ❯ 1. Yes      │`) read without it: the side bars become
 * blanks, so columns stay where they were. A question over numbered options with a cursor is a
 * dialog whether or not it is framed and whether or not a footer says "Enter to select".
 */
const FRAMED = /^(\s*)│(.*?)\s*│?\s*$/u;

function unframed(rows: readonly string[]): readonly string[] {
  let framed = false;
  for (const row of rows) if (FRAMED.test(row)) { framed = true; break; }
  if (!framed) return rows;
  return rows.map((row) => {
    const m = FRAMED.exec(row);
    return m === null ? row : `${m[1]} ${m[2]}`.trimEnd();
  });
}

export function liveRegion(layout: ScreenLayout): readonly string[] {
  if (layout.boxRow !== -1) return unframed(layout.texts.slice(layout.boxLastRow + 1));
  return unframed(layout.texts.slice(lastTurnStart(layout.texts, layout.texts.length)));
}
