/**
 * How Gemini CLI (0.61.0; corpus in tests/fixtures/gemini-corpus/) looks on screen. Its dialect
 * differs from Claude Code's in three places the core is told about through the spec's hooks:
 *  - the box: the composer's top border (a full-width `─` rule), a mode hint row (`Shift+Tab to
 *    accept edits`, `YOLO Ctrl+Y`, …), then the input row ` > text` — `>` in default and auto_edit
 *    modes, `*` in yolo, `!` in shell mode, `(r:)` in reverse search — drawn on a background
 *    colour with a plain space after the glyph (no U+00A0), then the footer. An echoed prompt in
 *    the transcript (` > text`) looks the same; only its place above the rule tells it apart;
 *  - the empty box shows its placeholder in the secondary colour (not dim) after the cursor cell,
 *    so the placeholder is told by its words and the cursor standing before them;
 *  - a menu's cursor is a radio dot (`● 1. Allow once`), rewritten to `❯` for the core's dialog
 *    reader (the transcript's own bullet is `✦`, so `●` before a number is always a cursor).
 * While a dialog is up (tool approval, ask_user, trust, auth) the composer is not drawn at all.
 */
import type { BlockerRule, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { FoundBox, ScreenLayout } from '../layout.ts';
import { isRule } from '../box-structure.ts';
import {
  exitedBySummary, GEMINI_FAMILY_MENUS, GEMINI_FAMILY_PLACEHOLDERS, readPlaceholderBox, turnErrorByLastEntry, workingByCancelHint, type EntryRow,
} from './gemini-family.ts';

/** The versions whose captures the reader is scored on (tests/fixtures/gemini-corpus/), oldest first. */
export const GEMINI_CORPUS_VERSIONS: readonly string[] = ['0.55.1', '0.61.0'];

/** Placeholders of the empty box (0.61.0 InputPrompt), anchored at both ends. */
export const GEMINI_PLACEHOLDERS: readonly RegExp[] = [...GEMINI_FAMILY_PLACEHOLDERS, /^Type your message or .+ \(Esc to exit\)$/];

export const GEMINI_BOX: PromptBoxSpec = { prefix: '> ', glyphs: '>*!', frame: '', placeholders: GEMINI_PLACEHOLDERS };

/** Most specific first: the first matching rule names the reason. */
export const GEMINI_BLOCKERS: readonly BlockerRule[] = [
  { reason: 'folder-trust', anyOf: ['Do you trust the files in this folder?', 'Do you trust the following folders being added to this workspace?'] },
  { reason: 'onboarding', anyOf: ['How would you like to authenticate for this project?'] },
  // ask_user: its header, and the free-text row every choice question adds
  { reason: 'question', anyOf: ['Answer Questions', 'Enter a custom value'] },
  // every tool confirmation offers these (shell, edit, MCP, web fetch)
  { reason: 'permission', anyOf: ['Allow once', 'Allow execution of', 'Apply this change?', 'No, suggest changes'] },
  ...GEMINI_FAMILY_MENUS,
];

/** The input row: one or two columns of padding, a mode glyph, a space. */
const INPUT_ROW = /^ {0,2}(?:\(r:\)|[>*!]) /;
/** How far below the composer's rule the input row may be (hint row, half-line padding). */
const INPUT_WITHIN = 5;
/** A half-line padding row in true-colour terminals, or a blank one. */
const PADDING = /^[\s▀▄]*$/;

/** The composer: the last full-width rule with an input row under it. */
function findBox(texts: readonly string[]): FoundBox | null {
  for (let rule = texts.length - 1; rule >= 0; rule--) {
    if (!isRule(texts[rule]!) || !/^─/.test(texts[rule]!)) continue;
    for (let r = rule + 1; r < Math.min(texts.length, rule + 1 + INPUT_WITHIN); r++) {
      const m = INPUT_ROW.exec(texts[r]!);
      if (m === null) continue;
      // A multi-line input goes on in the rows under it, indented to its text, until padding.
      let last = r;
      while (last + 1 < texts.length && !PADDING.test(texts[last + 1]!) && /^ {3}/.test(texts[last + 1]!)) last++;
      return { row: r, start: m[0].length, lastRow: last, chromeTop: rule };
    }
    return null; // the last rule holds no composer: a dialog or the exit summary is up
  }
  return null;
}

/** Rows rewritten for the core's dialog reader: `● 1.` (a radio cursor) → `❯ 1.`, same length. */
function normaliseRow(text: string): string {
  return text.includes('●') ? text.replace(/●(?=\s+\d{1,2}\.\s)/u, '❯') : text;
}

/** A running turn: `⠏ Thinking... (esc to cancel, 2s)` just above the composer (or near the bottom without one). */
const isWorking = workingByCancelHint(/\(esc to cancel\b/i);

/** The exit summary `/quit` draws: `Agent powering down. Goodbye!` … `To resume this session: gemini --resume <id>`. */
const isExited = exitedBySummary(/^\s*│\s+(?:Agent powering down\. Goodbye!|To resume this session: gemini --resume\b)/);

/**
 * A turn that ended in an error: Gemini CLI prints its error messages behind `✕ ` (`✕ [API Error:
 * {…}]`, a quota or auth error alike), often with an `ℹ` hint under them, then returns to an empty
 * composer — which otherwise reads as a finished turn. Read as the last entry of the transcript:
 * walking up from the composer, info lines (`ℹ`), wrapped continuations and the right-aligned
 * hint row are passed over; the first entry found decides. A reply (`✦`), an echoed prompt (`>`)
 * or a tool's box drawn after the error means the error is history.
 */
const ERROR_ENTRY = /^ ?\u2715\s+(\S.*)$/u;
const INFO_ENTRY = /^ ?\u2139\s/u;
const OTHER_ENTRY = /^ ?(?:\u2726|>|[╭╰│])/u;
/** A row pushed to the right (the `? for shortcuts` hint, a hook's note): chrome, not an entry. */
const RIGHT_HINT = /^\s{20,}\S/;

const turnError = turnErrorByLastEntry((text): EntryRow => {
  if (text.trim() === '' || PADDING.test(text) || RIGHT_HINT.test(text)) return 'uncounted';
  const m = ERROR_ENTRY.exec(text);
  if (m) return { error: m[1]!.trim() };
  if (INFO_ENTRY.test(text) || /^ {2,}\S/.test(text)) return 'pass';
  // A row it does not know (not an entry's first row) is walked past.
  return OTHER_ENTRY.test(text) ? 'none' : 'pass';
});

/** A startup notice (`⚠  Warning: True color …`, `ℹ …`) drawn under the transcript; its wrapped rows are indented. */
const NOTICE = /^ ?[\u26a0\u2139]\s/u;

/**
 * Gemini CLI draws its composer at once but its transcript only once its configuration is loaded
 * (0.61.0: MainContent renders nothing before then); the transcript always opens with the header
 * or the tips, and a resumed conversation is loaded into it after. So a composer with nothing
 * above it but startup notices and right-pushed hints is a start not yet finished. (With the
 * banner and the tips both hidden by a person's settings, a fresh start looks the same for good:
 * the machine waits on this sign only so long.)
 */
function startingUp(layout: ScreenLayout): boolean {
  if (layout.boxRow < 0 || layout.chromeTop === undefined) return false;
  let inNotice = false;
  for (let r = 0; r < layout.chromeTop; r++) {
    const text = layout.texts[r]!;
    if (text.trim() === '' || PADDING.test(text)) inNotice = false;
    else if (NOTICE.test(text)) inNotice = true;
    else if (!(inNotice && /^ {2,}\S/.test(text)) && !RIGHT_HINT.test(text)) return false;
  }
  return true;
}

export const geminiSpec: ScreenProfileSpec = {
  name: 'gemini',
  aliases: ['gemini-cli'],
  box: GEMINI_BOX,
  blockers: GEMINI_BLOCKERS,
  isWorking,
  isExited,
  findBox,
  normaliseRow,
  readBox: readPlaceholderBox(GEMINI_PLACEHOLDERS),
  turnError,
  startingUp,
};
