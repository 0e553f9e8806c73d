/**
 * Key names are looked up as own names only (issue 25 #5): `hand keys <id> __proto__` was
 * "internal error … key.char is not iterable" because the alias table found Object.prototype.
 * A prototype's name is a bad key, refused as usage (exit 2) with the list of keys.
 */
import { describe, expect, it } from 'vitest';
import { parseOneKey } from '../../io/terminal/keys.ts';

describe('a prototype name is not a key', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    it(`refuses ${name} as one key, naming the keys`, () => {
      let err: unknown;
      try {
        parseOneKey(name);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code: 'bad-key', exitCode: 2 });
      expect((err as Error).message).toContain('enter');
    });
  }

  it('still takes named keys, aliases and one character', () => {
    expect(parseOneKey('Enter')).toBe('enter');
    expect(parseOneKey('x')).toEqual({ char: 'x' });
  });
});
