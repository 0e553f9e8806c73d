/**
 * How keys act on the dialogs and menus, as pure functions: ↑/↓ move the caret, a digit picks
 * its row, Enter picks the caret's row, Esc cancels.
 */
import type { Key } from './input-parser.ts';
import type { PermissionAnswer } from './turn-engine.ts';

export type MenuResult<S, C> = { state: S } | { choice: C };

function move(caret: number, key: Key, count: number): number | null {
  if (key.type === 'up') return Math.max(0, caret - 1);
  if (key.type === 'down') return Math.min(count - 1, caret + 1);
  return null;
}

function digit(key: Key, count: number): number | null {
  if (key.type !== 'text' || !/^[1-9]$/.test(key.text)) return null;
  const n = Number(key.text);
  return n <= count ? n - 1 : null;
}

/** Folder trust: row 0 `No, exit` (the default), row 1 `Yes, I trust this folder`. */
export function trustKey(caret: number, key: Key): MenuResult<number, 'exit' | 'trust'> {
  const moved = move(caret, key, 2);
  if (moved !== null) return { state: moved };
  if (key.type === 'enter') return { choice: caret === 1 ? 'trust' : 'exit' };
  if (key.type === 'escape') return { choice: 'exit' };
  return { state: caret };
}

const PERMISSION_ANSWERS: PermissionAnswer[] = ['yes', 'always', 'auto', 'no'];

export function permissionKey(caret: number, key: Key): MenuResult<number, PermissionAnswer> {
  const moved = move(caret, key, PERMISSION_ANSWERS.length);
  if (moved !== null) return { state: moved };
  const picked = digit(key, PERMISSION_ANSWERS.length);
  if (picked !== null) return { choice: PERMISSION_ANSWERS[picked] as PermissionAnswer };
  if (key.type === 'enter') return { choice: PERMISSION_ANSWERS[caret] as PermissionAnswer };
  if (key.type === 'escape') return { choice: 'no' };
  return { state: caret };
}

export interface QuestionState {
  caret: number;
  typed: string;
}

/**
 * AskUserQuestion: rows are the options, `Type something.` (free text typed on that row) and
 * `Chat about this`. The choice is the answer's label, or null for cancel / chat.
 */
export function questionKey(s: QuestionState, key: Key, labels: readonly string[]): MenuResult<QuestionState, string | null> {
  const typeRow = labels.length;
  const count = labels.length + 2;
  const onTypeRow = s.caret === typeRow;
  if (onTypeRow && key.type === 'text' && (s.typed !== '' || digit(key, count) === null)) return { state: { ...s, typed: s.typed + key.text } };
  if (onTypeRow && key.type === 'paste') return { state: { ...s, typed: s.typed + key.text.replace(/\s+/g, ' ') } };
  if (onTypeRow && key.type === 'backspace') return { state: { ...s, typed: Array.from(s.typed).slice(0, -1).join('') } };
  const moved = move(s.caret, key, count);
  if (moved !== null) return { state: { ...s, caret: moved } };
  const picked = digit(key, count);
  const row = picked ?? (key.type === 'enter' ? s.caret : null);
  if (row !== null) {
    if (row < labels.length) return { choice: labels[row] as string };
    if (row === typeRow) return s.typed.trim() && key.type === 'enter' ? { choice: s.typed.trim() } : { state: { ...s, caret: typeRow } };
    return { choice: null };
  }
  if (key.type === 'escape') return { choice: null };
  return { state: s };
}
