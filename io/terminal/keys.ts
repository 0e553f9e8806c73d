/**
 * Keys: validation and the two encodings our hosts need (tmux key names, raw pty bytes).
 * One key per call is a rule (DESIGN.md principle 6), so everything here handles exactly one key.
 */
import { UsageError } from '../../contract/errors.ts';
import { codePoint, INVISIBLE } from '../text/sendable-text.ts';
import { KEY_NAMES, type Key, type NamedKey, type PaneEvent } from './types.ts';

const NAMED = new Set<string>(KEY_NAMES);

/** Aliases a person may type on the command line (`hand keys w1 esc`). */
const ALIASES: Record<string, NamedKey> = {
  esc: 'escape',
  return: 'enter',
  'shift-tab': 'btab',
  'shift+tab': 'btab',
  'ctrl+c': 'ctrl-c',
  'c-c': 'ctrl-c',
  'ctrl+u': 'ctrl-u',
  'c-u': 'ctrl-u',
  bs: 'backspace',
};

/** A key that is not one named key or one printable character: bad input, exit 2. */
export class InvalidKeyError extends UsageError {
  constructor(detail: string) {
    super('invalid-key', `invalid key: ${detail}`);
  }
}

/**
 * Throws unless `key` is one named key or exactly one printable character (one code point;
 * a control character would smuggle a second key past the one-key rule).
 */
export function assertKey(key: Key): void {
  if (typeof key === 'string') {
    if (!NAMED.has(key)) throw new InvalidKeyError(`unknown key name ${JSON.stringify(key)}`);
    return;
  }
  const chars = [...key.char];
  if (chars.length !== 1) throw new InvalidKeyError(`expected exactly one character, got ${JSON.stringify(key.char)}`);
  // A character nobody can see (zero-width, bidirectional control) is named by its code point.
  if (INVISIBLE.test(key.char)) throw new InvalidKeyError(`${codePoint(key.char)} is a character a person cannot see (zero-width or bidirectional control); press a visible key`);
  if (/\p{Cc}/u.test(key.char)) throw new InvalidKeyError(`control character ${JSON.stringify(key.char)} is not a printable key`);
}

/** Parses a key as a person writes it: a name (case-insensitive, with aliases) or one character. */
export function parseKey(text: string): Key {
  const lower = text.toLowerCase();
  if (NAMED.has(lower)) return lower as NamedKey;
  // Own names only: `__proto__` or `constructor` would find Object.prototype's members.
  const alias = Object.hasOwn(ALIASES, lower) ? ALIASES[lower] : undefined;
  if (alias) return alias;
  const key: Key = { char: text };
  assertKey(key);
  return key;
}

/** Human-readable form for logs and error messages. */
export function describeKey(key: Key): string {
  return typeof key === 'string' ? key : JSON.stringify(key.char);
}

const TMUX_NAMES: Record<NamedKey, string> = {
  enter: 'Enter',
  escape: 'Escape',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  tab: 'Tab',
  btab: 'BTab',
  space: 'Space',
  backspace: 'BSpace',
  'ctrl-c': 'C-c',
  'ctrl-u': 'C-u',
};

/**
 * argv tail for `tmux send-keys -t <pane> ...`. A character goes with -l (literal) so that a
 * character that happens to spell a key name ("q" is fine, but think of ";") is never looked up.
 */
export function tmuxSendKeysArgs(key: Key): string[] {
  assertKey(key);
  return typeof key === 'string' ? [TMUX_NAMES[key]] : ['-l', '--', key.char];
}

/**
 * Bytes a terminal sends for the key. `applicationCursor` follows DECCKM (the app asked for
 * SS3 arrows with CSI ?1h); tmux does this for us, an in-process pty host must do it itself.
 */
export function keyBytes(key: Key, applicationCursor = false): string {
  assertKey(key);
  if (typeof key !== 'string') return key.char;
  const arrow = (final: string) => (applicationCursor ? `\x1bO${final}` : `\x1b[${final}`);
  switch (key) {
    case 'enter': return '\r';
    case 'escape': return '\x1b';
    case 'up': return arrow('A');
    case 'down': return arrow('B');
    case 'right': return arrow('C');
    case 'left': return arrow('D');
    case 'tab': return '\t';
    case 'btab': return '\x1b[Z';
    case 'space': return ' ';
    case 'backspace': return '\x7f';
    case 'ctrl-c': return '\x03';
    case 'ctrl-u': return '\x15';
  }
}

/** Longest wait for the app to draw typed text before the pause and the Enter (see typeThenSubmit). */
export const ECHO_WAIT_MS = 2_000;

type Subscribe = (paneId: string, listener: (event: PaneEvent) => void) => () => void;

/** Resolves on the pane's next redraw (or exit), or after `ms`; `cancel` stops listening. */
export function nextRedraw(subscribe: Subscribe, paneId: string, ms: number): { promise: Promise<void>; cancel: () => void } {
  let cancel!: () => void;
  const promise = new Promise<void>((resolve) => {
    const timer = setTimeout(() => cancel(), ms);
    const unsubscribe = subscribe(paneId, (event) => {
      if (event.type === 'changed' || event.type === 'exited') cancel();
    });
    cancel = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
  });
  return { promise, cancel };
}

/**
 * Text, a pause, then Enter as its own key — the submit every host does. A TUI that reads the
 * Enter in the same chunk as the text takes it as part of a paste (a newline), not a submit;
 * herdr waits 300 ms for the same reason (herdr.md, `agent prompt`). A fixed pause is not enough
 * on a loaded machine: the real Claude Code, starved of CPU, read text and Enter in one chunk
 * and left the prompt in its box. So, given the host's events, the Enter waits first for the app
 * to draw the text (it has read it then; at most ECHO_WAIT_MS), then for the pause.
 */
export async function typeThenSubmit(
  io: { typeText(paneId: string, text: string): Promise<void>; sendKey(paneId: string, key: Key): Promise<void>; subscribe?: Subscribe },
  paneId: string,
  text: string,
  delayMs: number,
  beforeEnter?: () => Promise<void>,
): Promise<void> {
  const echo = io.subscribe && text.length > 0 ? nextRedraw(io.subscribe, paneId, ECHO_WAIT_MS) : null;
  try {
    await io.typeText(paneId, text);
    await echo?.promise;
  } finally {
    echo?.cancel();
  }
  await new Promise<void>((resolve) => setTimeout(resolve, delayMs));
  await beforeEnter?.();
  await io.sendKey(paneId, 'enter');
}

/** One key as a person writes it; anything else is bad usage that points at `hand send`. */
export function parseOneKey(raw: string): Key {
  try {
    return parseKey(raw);
  } catch {
    throw new UsageError(
      'bad-key',
      `${JSON.stringify(raw)} is not one key. Send exactly one key per call: ${KEY_NAMES.join(', ')}, or one printable character (use hand send for text).`,
      { key: raw },
    );
  }
}
