/**
 * A dialog on screen (permission or question): its view for the layout and how it takes keys.
 * The answer goes back to the waiting turn through the request's resolve.
 */
import type { Key } from './input-parser.ts';
import type { DialogView } from './layout-frame.ts';
import { permissionKey, questionKey } from './menu-keys.ts';
import type { DialogRequest } from './turn-runner.ts';

export interface OpenDialog {
  view(cwd: string): DialogView;
  /** Applies one key; the dialog resolves its request when a choice is made. */
  key(key: Key): void;
}

export function openDialog(d: DialogRequest): OpenDialog {
  if (d.kind === 'permission') {
    let caret = 0;
    return {
      view: (cwd) => ({ kind: 'permission', view: { command: d.command, description: d.description, cwd, caret } }),
      key(key) {
        const r = permissionKey(caret, key);
        if ('state' in r) caret = r.state;
        else d.resolve(r.choice);
      },
    };
  }
  const { header, question, options } = d.step;
  const state = { caret: 0, typed: '' };
  const labels = options.map((o) => o.label);
  return {
    view: () => ({ kind: 'question', view: { header, question, options, ...state } }),
    key(key) {
      // Several characters can arrive in one read; outside the free-text row each one is a key.
      const keys: Key[] =
        key.type === 'text' && state.caret !== labels.length ? Array.from(key.text, (ch): Key => ({ type: 'text', text: ch })) : [key];
      for (const k of keys) {
        const r = questionKey(state, k, labels);
        if (!('state' in r)) return d.resolve(r.choice);
        Object.assign(state, r.state);
      }
    },
  };
}
