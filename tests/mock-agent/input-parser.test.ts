/**
 * Raw terminal input becomes keys: a bracketed paste is one event however the reads split it
 * (its newlines never act as Enter), escape sequences split across reads are kept until whole,
 * and a lone ESC is Escape only once no more bytes follow.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyParser, type Key } from '../../mock-agent/input-parser.ts';

function feedAll(chunks: string[]): Key[] {
  const p = new KeyParser();
  const keys = chunks.flatMap((c) => p.feed(c));
  return [...keys, ...p.flush()];
}

describe('the mock agent input parser', () => {
  it('a bracketed paste arrives as one event whatever the read boundaries', () => {
    const body = 'first line\rsecond line\n\x1b[A not a key\r\nend';
    const stream = `ab\x1b[200~${body}\x1b[201~\r`;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 6 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => stream.slice(from, points[i] ?? stream.length));
        const keys = feedAll(chunks).filter((k) => k.type !== 'text' || k.text !== '');
        const texts = keys.filter((k) => k.type === 'text').map((k) => (k as { text: string }).text).join('');
        expect(texts).toBe('ab');
        expect(keys.filter((k) => k.type === 'paste')).toEqual([{ type: 'paste', text: body }]);
        expect(keys.at(-1)).toEqual({ type: 'enter' });
      }),
    );
  });

  it('arrow keys, shift+tab and ctrl keys are recognised; focus reports are ignored', () => {
    expect(feedAll(['\x1b[A\x1b[B\x1bOA\x1b[Z\x15\x03\x1b[I\x7f\t'])).toEqual([
      { type: 'up' },
      { type: 'down' },
      { type: 'up' },
      { type: 'shift-tab' },
      { type: 'ctrl', key: 'u' },
      { type: 'ctrl', key: 'c' },
      { type: 'backspace' },
      { type: 'tab' },
    ]);
  });

  it('a lone ESC waits for the next read; two ESCs are two Escapes', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b')).toEqual([]);
    expect(p.pending).toBe(true);
    expect(p.feed('[B')).toEqual([{ type: 'down' }]);
    expect(p.feed('\x1b')).toEqual([]);
    expect(p.flush()).toEqual([{ type: 'escape' }]);
    expect(p.feed('\x1b\x1b')).toEqual([{ type: 'escape' }]);
    expect(p.flush()).toEqual([{ type: 'escape' }]);
  });

  it('typed text runs stay whole, multi-byte characters included', () => {
    expect(feedAll(['héllo ❯ wörld'])).toEqual([{ type: 'text', text: 'héllo ❯ wörld' }]);
  });
});
