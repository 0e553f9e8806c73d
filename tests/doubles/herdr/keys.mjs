// Key names as herdr's parse_key_combo accepts them (reference §1.5), encoded for the legacy
// keyboard mode (the double does not implement the kitty keyboard protocol or modifyOtherKeys).
// Every key of a call is validated before any byte is written.

const NAMED = {
  enter: '\r',
  return: '\r',
  esc: '\x1b',
  escape: '\x1b',
  tab: '\t',
  backspace: '\x7f',
  bs: '\x7f',
  space: ' ',
  minus: '-',
  plus: '+',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  quote: "'",
  double_quote: '"',
  'double-quote': '"',
  semicolon: ';',
  colon: ':',
  percent: '%',
  ampersand: '&',
  backtick: '`',
};
const ARROWS = { up: 'A', down: 'B', right: 'C', left: 'D' };
const FKEYS = ['OP', 'OQ', 'OR', 'OS', '[15~', '[17~', '[18~', '[19~', '[20~', '[21~', '[23~', '[24~'];
const MODIFIERS = { ctrl: 'ctrl', control: 'ctrl', shift: 'shift', alt: 'alt', option: 'alt', meta: 'alt' };
const UNENCODABLE_MODIFIERS = new Set(['cmd', 'command', 'super', 'hyper']);

class KeyError extends Error {}

function encodeOne(token, appCursor) {
  let combo = token;
  if (/^[Cc]-.$/.test(combo)) combo = `ctrl+${combo.slice(2)}`;
  if (combo === '+') return '+';
  if ([...combo].length === 1) return combo; // any single character; uppercase is Shift+letter
  const parts = combo.split('+');
  const keyName = parts.pop();
  const mods = new Set();
  for (const raw of parts) {
    const m = raw.toLowerCase();
    if (UNENCODABLE_MODIFIERS.has(m)) throw new KeyError(`modifier ${raw} cannot be encoded in this keyboard mode`);
    if (!MODIFIERS[m]) throw new KeyError(`unknown modifier ${raw}`);
    mods.add(MODIFIERS[m]);
  }
  const lower = keyName.toLowerCase();
  let base;
  if ([...keyName].length === 1) base = keyName;
  else if (lower in NAMED) base = NAMED[lower];
  else if (lower in ARROWS) base = `${appCursor && mods.size === 0 ? '\x1bO' : '\x1b['}${ARROWS[lower]}`;
  else if (/^f([1-9]|1[0-2])$/.test(lower)) base = `\x1b${FKEYS[Number(lower.slice(1)) - 1]}`;
  else throw new KeyError(`unknown key ${keyName}`);

  if (mods.has('shift')) {
    if (lower === 'tab') base = '\x1b[Z';
    else if (base.length === 1) base = base.toUpperCase();
  }
  if (mods.has('ctrl')) {
    if (base.length !== 1) throw new KeyError(`ctrl+${keyName} cannot be encoded in this keyboard mode`);
    const code = base.toUpperCase().charCodeAt(0);
    if (base === ' ') base = '\x00';
    else if (code >= 0x40 && code <= 0x5f) base = String.fromCharCode(code & 0x1f);
    else throw new KeyError(`ctrl+${keyName} cannot be encoded in this keyboard mode`);
  }
  if (mods.has('alt')) base = `\x1b${base}`;
  return base;
}

/** Bytes for every key, or throws { code: 'invalid_params' } before anything is written. */
export function encodeKeys(keys, appCursor) {
  if (!Array.isArray(keys) || keys.length === 0) throw { code: 'invalid_params', message: 'at least one key is required' };
  try {
    return keys.map((k) => encodeOne(String(k), appCursor)).join('');
  } catch (err) {
    if (err instanceof KeyError) throw { code: 'invalid_params', message: `invalid key: ${err.message}` };
    throw err;
  }
}
