/**
 * The dialog a blocked screen shows, as data a person (or the Hand on their behalf) can answer:
 * its question, its options in order, which one the cursor is on, whether the cursor sits on a
 * free-text row (typed text goes into that field, not into a prompt), and a fingerprint of the
 * dialog itself. Read once, here, from the same live rows the blocker came from, so `hand read`,
 * `hand status`, wait results, the send guard and `hand answer` all see the same dialog.
 *
 * The fingerprint covers the dialog's rows with the cursor glyph blanked: moving the cursor is
 * not a different dialog, but the next permission prompt (same options, another command) is.
 */
import { createHash } from 'node:crypto';
import type { DialogOption, DialogReading } from './types.ts';
import type { ScreenLayout } from './layout.ts';
import { liveRegion } from './live-region.ts';

const NUMBERED = /^\s*([❯>›▶▸►→]\s*)?(\d{1,2})[.)]\s+(\S.*?)\s*$/u;
/** Indented: a cursor at column 0 is an echoed prompt or the live box, never a choice (menu-shape.ts agrees). */
const CURSOR_ROW = /^(\s+)[❯›] (\S.*?)\s*$/u;
/** A full-width solid rule: Claude Code draws every dialog under one (the command box uses ╌). */
const SOLID_RULE = /^\s*─{8,}\s*$/;
/** Rows that take typed text when the cursor is on them (AskUserQuestion's own answer row; Qwen Code's `Type something...`). */
const FREE_TEXT = /^Type something(?:\.|\.\.\.)?$/;

interface Row { index: number; option: DialogOption; cursor: boolean }

function numberedRows(rows: readonly string[]): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const m = NUMBERED.exec(rows[i]!);
    if (!m) continue;
    const n = Number(m[2]);
    // A new 1. starts the list again: only the last list on the live rows is the dialog's.
    if (n === 1) out.length = 0;
    out.push({ index: i, cursor: m[1] !== undefined, option: { n, label: m[3]!, freeText: FREE_TEXT.test(m[3]!) } });
  }
  return out.some((r) => r.cursor) ? out : [];
}

/** `❯ No, exit` / `  Yes, I trust this folder`: the cursor row and its siblings in the same column. */
function unnumberedRows(rows: readonly string[]): Row[] {
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = CURSOR_ROW.exec(rows[i]!);
    if (!m || NUMBERED.test(rows[i]!)) continue;
    const column = m[1]!.length + 2;
    const sibling = (k: number): string | null => {
      const row = rows[k];
      if (row === undefined || row.trim() === '') return null;
      const lead = row.length - row.trimStart().length;
      return lead === column && !/^[●⏺⎿]/.test(row.trim()) ? row.trim() : null;
    };
    let top = i;
    while (sibling(top - 1) !== null) top--;
    let bottom = i;
    while (sibling(bottom + 1) !== null) bottom++;
    if (top === bottom) continue;
    const out: Row[] = [];
    for (let k = top; k <= bottom; k++) {
      const label = k === i ? m[2]! : sibling(k)!;
      out.push({ index: k, cursor: k === i, option: { n: out.length + 1, label, freeText: FREE_TEXT.test(label) } });
    }
    return out;
  }
  return [];
}

/**
 * A labelled detail line of a dialog (`Reason: Do you allow …?`): Codex CLI draws the model's own
 * question for a command that way, nearest the options. What is asked is the text after the label:
 * the label went into every face's quotation ("Reason: …", issue 38 item 11).
 */
const FIELD_LABEL = /^(?:Reason|Question):\s+/;

function questionAbove(rows: readonly string[], first: number, top: number): string | null {
  let fallback: string | null = null;
  for (let i = first - 1; i >= top; i--) {
    const t = rows[i]!.trim().replace(FIELD_LABEL, '');
    if (t === '' || SOLID_RULE.test(t) || /^╌+$/.test(t)) continue;
    if (t.endsWith('?')) return t;
    if (fallback === null && t.includes('?')) fallback = t;
  }
  if (fallback !== null) return fallback;
  for (let i = top; i < first; i++) {
    const t = rows[i]!.trim();
    if (t !== '' && !SOLID_RULE.test(t) && !/^╌+$/.test(t)) return t;
  }
  return null;
}

/** The dialog on the live rows, or null when they hold no option list with a cursor. */
export function readDialog(layout: ScreenLayout, reason: string): DialogReading | null {
  const rows = liveRegion(layout);
  let options = numberedRows(rows);
  const numbered = options.length >= 2;
  if (!numbered) options = unnumberedRows(rows);
  if (options.length < 2) return null;
  const first = options[0]!.index;
  const last = options[options.length - 1]!.index;
  let top = 0;
  for (let i = first - 1; i >= 0; i--) if (SOLID_RULE.test(rows[i]!)) { top = i + 1; break; }
  const body = rows.slice(top, last + 1).map((r) => r.replace(/^(\s*)[❯›>▶▸►→](?=\s)/u, '$1 ').trimEnd());
  const cursor = options.findIndex((o) => o.cursor);
  return {
    fingerprint: createHash('sha256').update(`${reason}\n${body.join('\n')}`, 'utf8').digest('hex').slice(0, 16),
    reason,
    question: questionAbove(rows, first, top),
    options: options.map((o) => o.option),
    numbered,
    cursor: cursor === -1 ? null : options[cursor]!.option.n,
    textField: cursor !== -1 && options[cursor]!.option.freeText,
  };
}
