/**
 * How keys act on the input box (no dialog open), as a pure function. Enter never submits while
 * a turn runs; a bare Enter on a prompt suggestion submits the suggestion, as the real program
 * does; Escape interrupts a running turn, else closes the slash menu or drops the suggestion.
 */
import { backspace, emptyBox, insertPaste, insertText, slashQuery, type BoxState } from './box-state.ts';
import type { Key } from './input-parser.ts';
import { slashMatches, type SlashCommand } from './layout-dialogs.ts';

export interface BoxContext {
  box: BoxState;
  /** What ctrl+u last deleted (ctrl+y brings it back). */
  killed: BoxState | null;
  working: boolean;
  pasteCount: number;
}

export type BoxAction =
  | { kind: 'none' }
  | { kind: 'update'; box: BoxState; killed?: BoxState | null; hint?: string | null; pasteCount?: number }
  | { kind: 'submit'; box: BoxState }
  | { kind: 'slash'; name: string }
  | { kind: 'interrupt' }
  | { kind: 'cycle-mode' };

export interface SlashMenu {
  commands: SlashCommand[];
  caret: number;
}

export function slashMenuOf(box: BoxState): SlashMenu | null {
  const q = slashQuery(box);
  if (q === null) return null;
  const commands = slashMatches(q);
  return commands.length ? { commands, caret: Math.min(box.slashCaret, commands.length - 1) } : null;
}

export const CTRL_Y_HINT = 'ctrl+y to paste deleted text';

export function boxKey(ctx: BoxContext, key: Key): BoxAction {
  const { box } = ctx;
  const slash = slashMenuOf(box);
  switch (key.type) {
    case 'text':
      return { kind: 'update', box: insertText(box, key.text) };
    case 'paste':
      return { kind: 'update', box: insertPaste(box, key.text, ctx.pasteCount + 1), pasteCount: ctx.pasteCount + 1 };
    case 'backspace':
      return { kind: 'update', box: box.text === '' ? { ...box, suggestion: null } : backspace(box) };
    case 'enter':
      if (ctx.working) return { kind: 'none' };
      if (slash) return { kind: 'slash', name: slash.commands[slash.caret]?.name ?? box.text };
      if (box.text === '' && box.suggestion) return { kind: 'submit', box: insertText(emptyBox(), box.suggestion) };
      return box.text.trim() !== '' ? { kind: 'submit', box } : { kind: 'none' };
    case 'escape':
      if (ctx.working) return { kind: 'interrupt' };
      return { kind: 'update', box: slash ? { ...box, slashDismissed: true } : { ...box, suggestion: null } };
    case 'up':
    case 'down': {
      if (!slash) return { kind: 'none' };
      const caret = Math.max(0, Math.min(slash.commands.length - 1, slash.caret + (key.type === 'up' ? -1 : 1)));
      return { kind: 'update', box: { ...box, slashCaret: caret } };
    }
    case 'shift-tab':
      return { kind: 'cycle-mode' };
    case 'ctrl':
      if (key.key === 'u' && box.text !== '') return { kind: 'update', box: emptyBox(), killed: box, hint: CTRL_Y_HINT };
      if (key.key === 'y' && ctx.killed) return { kind: 'update', box: ctx.killed, killed: null, hint: null };
      return { kind: 'none' };
    default:
      return { kind: 'none' };
  }
}
