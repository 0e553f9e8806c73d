import { describe, expect, it } from 'vitest';
import { assertKey, InvalidKeyError, keyBytes, parseKey, tmuxSendKeysArgs } from '../../io/terminal/keys.ts';
import { KEY_NAMES } from '../../io/terminal/types.ts';

describe('keys: exactly one per call', () => {
  it('accepts every named key and exactly one printable character', () => {
    for (const name of KEY_NAMES) expect(() => assertKey(name)).not.toThrow();
    for (const char of ['a', '1', ';', '漢', '👍']) expect(() => assertKey({ char })).not.toThrow();
  });

  it('refuses two characters, an empty one, a control character and unknown names', () => {
    for (const char of ['ab', '', '\r', '\x1b', '\t']) expect(() => assertKey({ char })).toThrow(InvalidKeyError);
    expect(() => assertKey('f13' as never)).toThrow(InvalidKeyError);
    expect(new InvalidKeyError('x').exitCode).toBe(2);
  });

  it('parses names case-insensitively with the usual aliases, or one character', () => {
    expect(parseKey('Enter')).toBe('enter');
    expect(parseKey('esc')).toBe('escape');
    expect(parseKey('shift+tab')).toBe('btab');
    expect(parseKey('C-c')).toBe('ctrl-c');
    expect(parseKey('2')).toEqual({ char: '2' });
    expect(() => parseKey('yes')).toThrow(InvalidKeyError);
  });

  it('sends a character to tmux literally, never as a key-name lookup', () => {
    expect(tmuxSendKeysArgs({ char: 'q' })).toEqual(['-l', '--', 'q']);
    expect(tmuxSendKeysArgs('btab')).toEqual(['BTab']);
  });

  it('encodes arrows for the cursor-key mode the app asked for', () => {
    expect(keyBytes('up')).toBe('\x1b[A');
    expect(keyBytes('up', true)).toBe('\x1bOA');
    expect(keyBytes('enter')).toBe('\r');
    expect(keyBytes('escape')).toBe('\x1b');
    expect(keyBytes({ char: 'é' })).toBe('é');
  });
});
