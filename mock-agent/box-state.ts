/**
 * The input box's content. A long paste is shown collapsed as `[Pasted text #N +L lines]`, as
 * the real program does, but submitted in full. A prompt suggestion is app state, not text: the
 * first typed character replaces it, a bare Enter accepts it (the hazard the supervisor guards).
 */

export interface Paste {
  label: string;
  content: string;
}

export interface BoxState {
  text: string;
  pastes: Paste[];
  suggestion: string | null;
  slashCaret: number;
  slashDismissed: boolean;
}

/** Pastes longer than this, or with more than two line breaks, are collapsed. */
const COLLAPSE_CHARS = 800;
const COLLAPSE_NEWLINES = 2;

export function emptyBox(suggestion: string | null = null): BoxState {
  return { text: '', pastes: [], suggestion, slashCaret: 0, slashDismissed: false };
}

export function insertText(box: BoxState, text: string): BoxState {
  return { ...box, text: box.text + text, suggestion: null, slashCaret: 0, slashDismissed: false };
}

export function insertPaste(box: BoxState, content: string, pasteNumber: number): BoxState {
  const normalised = content.replace(/\r\n?/g, '\n');
  const newlines = (normalised.match(/\n/g) ?? []).length;
  if (normalised.length <= COLLAPSE_CHARS && newlines <= COLLAPSE_NEWLINES) return insertText(box, normalised);
  const label = `[Pasted text #${pasteNumber} +${newlines} lines]`;
  return { ...insertText(box, label), pastes: [...box.pastes, { label, content: normalised }] };
}

export function backspace(box: BoxState): BoxState {
  const last = box.pastes[box.pastes.length - 1];
  if (last && box.text.endsWith(last.label)) {
    return { ...box, text: box.text.slice(0, -last.label.length), pastes: box.pastes.slice(0, -1), slashCaret: 0, slashDismissed: false };
  }
  const chars = Array.from(box.text);
  chars.pop();
  return { ...box, text: chars.join(''), slashCaret: 0, slashDismissed: false };
}

/** The prompt as submitted: collapsed pastes expanded back to their content. */
export function expandedText(box: BoxState): string {
  let text = box.text;
  for (const p of box.pastes) text = text.replace(p.label, () => p.content);
  return text;
}

/** Text that opens the slash-command menu: `/` and a command name, nothing else yet. */
export function slashQuery(box: BoxState): string | null {
  return !box.slashDismissed && /^\/\S*$/.test(box.text) ? box.text : null;
}
