/**
 * Rule: what types into a worker is what the person can see (issue 43). Invisible keys (U+200B,
 * U+202E) were typed, and a refusal quoted invisible text. Now `send`, `keys` and `decide`'s answer
 * refuse zero-width and bidirectional control characters, naming each by its code point; and
 * decide's answer is checked as send's text is before it is accepted (one with a control
 * character was recorded, could never be delivered and could never be answered again).
 */
import { describe, expect, it } from 'vitest';
import { checkSendableText } from '../../io/text/sendable-text.ts';
import { assertKey } from '../../io/terminal/keys.ts';
import { PARAM_PARSERS } from '../../daemon/method-table.ts';

describe('invisible characters are refused by code point', () => {
  it('send text: U+202E and U+200B are named, with the first position', () => {
    expect(() => checkSendableText('run the tests\u202Etxt.exe')).toThrow(/cannot see \(U\+202E, first at position 13\)/);
    expect(() => checkSendableText('approve\u200Bit')).toThrow(/U\+200B/);
    expect(checkSendableText('plain words')).toBe('plain words');
  });

  it('keys: an invisible character is not a key', () => {
    expect(() => assertKey({ char: '\u200B' })).toThrow(/U\+200B is a character a person cannot see/);
    expect(() => assertKey({ char: 'y' })).not.toThrow();
  });

  it("decide: the answer is checked before it is accepted, as send's text is", () => {
    expect(() => PARAM_PARSERS.decide({ key: 'k1', answer: 'Postgres\u0003' })).toThrow(/control character/);
    expect(() => PARAM_PARSERS.decide({ key: 'k1', answer: 'Post\u202Egres' })).toThrow(/U\+202E/);
    expect(PARAM_PARSERS.decide({ key: 'k1', answer: 'Postgres' })).toMatchObject({ key: 'k1', answer: 'Postgres' });
    expect(PARAM_PARSERS.decide({ key: 'k1', declined: 'not now' })).toMatchObject({ declined: 'not now' });
  });
});
