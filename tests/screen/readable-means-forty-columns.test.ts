/**
 * Readable = the widest row, right-trimmed, is at least 40 columns (control-plane §3.5). Below
 * that the agent word-wraps its own hints and every classifier goes blind.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, isReadable } from '../../io/screen/index.ts';
import { BOX, NBSP, screenOf } from './helpers.ts';

describe('readable when the widest trimmed row spans at least 40 columns', () => {
  it('39 columns is unreadable, 40 is readable', () => {
    expect(isReadable(screenOf('x'.repeat(39), BOX))).toBe(false);
    expect(isReadable(screenOf('x'.repeat(40), BOX))).toBe(true);
  });

  it('trailing whitespace (spaces, tabs, NBSP) does not make a row wide', () => {
    expect(isReadable(screenOf(`${'x'.repeat(30)}${' '.repeat(20)}`))).toBe(false);
    expect(isReadable(screenOf(`${'x'.repeat(30)}\t\t\t\t${NBSP.repeat(12)}`))).toBe(false);
  });

  it('leading indentation counts: it is drawn columns', () => {
    expect(isReadable(screenOf(`${' '.repeat(20)}${'x'.repeat(20)}`))).toBe(true);
  });

  it('a narrow pane reads unreadable with no fingerprint, and never idle', () => {
    const narrow = screenOf('─'.repeat(36), BOX, '─'.repeat(36), '  ⏸ manual mode on · ? for', '  shortcuts');
    const reading = analyseScreen(narrow);
    expect(reading.readable).toBe(false);
    expect(reading.fingerprint).toBe('');
    expect(reading.state).not.toBe('idle');
  });
});
