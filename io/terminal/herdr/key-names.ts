/**
 * herdr's key names (reference §1.5) for our one-key vocabulary. herdr parses the same names on
 * the CLI (`pane send-keys`) and on the socket (`pane.send_keys`), so they live apart from both.
 */
import { assertKey } from '../keys.ts';
import type { Key, NamedKey } from '../types.ts';

const KEY_TOKENS: Record<NamedKey, string> = {
  enter: 'enter',
  escape: 'esc',
  up: 'up',
  down: 'down',
  left: 'left',
  right: 'right',
  tab: 'tab',
  btab: 'shift+tab',
  space: 'space',
  backspace: 'backspace',
  'ctrl-c': 'ctrl+c',
  'ctrl-u': 'ctrl+u',
};

/** One key as herdr names it. A lone `+` would read as a modifier joiner, so it is `plus`. */
export function herdrKeyToken(key: Key): string {
  assertKey(key);
  if (typeof key === 'string') return KEY_TOKENS[key];
  if (key.char === ' ') return 'space';
  if (key.char === '+') return 'plus';
  return key.char;
}
