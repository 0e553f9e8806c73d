/**
 * The herdr socket requests kingshand composes for its per-call verbs (reference §1.8,
 * control-plane §3.1, §7): pinned because each shape is a lesson — a scrollback read classified a
 * menu answered long ago, two keys in one call raced the screen.
 */
import { describe, expect, it } from 'vitest';
import { herdrRequests } from '../../io/terminal/herdr/herdr-socket.ts';
import { herdrKeyToken } from '../../io/terminal/herdr/key-names.ts';
import { KEY_NAMES, type Key } from '../../io/terminal/types.ts';

describe('herdr socket requests', () => {
  it('classifies only the live viewport: the screen read asks for source visible and never a recent source', () => {
    const [method, params] = herdrRequests.readVisible('w1:p1');
    expect(method).toBe('pane.read');
    expect(params).toEqual({ pane_id: 'w1:p1', source: 'visible', format: 'ansi', strip_ansi: false });
    expect(JSON.stringify(params)).not.toContain('recent');
  });

  it('sends exactly one key per pane.send_keys request, for every key we know', () => {
    const keys: Key[] = [...KEY_NAMES, { char: 'y' }, { char: '1' }, { char: '+' }, { char: ' ' }, { char: 'é' }];
    for (const key of keys) {
      const [method, params] = herdrRequests.sendKey('w1:p1', key);
      expect(method).toBe('pane.send_keys');
      expect(params.pane_id).toBe('w1:p1');
      expect(params.keys).toHaveLength(1);
      // herdr joins modifiers with '+': a lone '+' must be spelled `plus`, a space `space`.
      expect(params.keys[0]).not.toMatch(/^\s*$/);
    }
    expect(herdrKeyToken({ char: '+' })).toBe('plus');
    expect(herdrKeyToken('btab')).toBe('shift+tab');
    expect(herdrKeyToken('escape')).toBe('esc');
  });

  it('refuses a key that is not one key before composing anything', () => {
    expect(() => herdrRequests.sendKey('w1:p1', { char: 'ab' })).toThrow(/exactly one character/);
    expect(() => herdrRequests.sendKey('w1:p1', { char: '\r' })).toThrow(/control character/);
    expect(() => herdrRequests.sendKey('w1:p1', 'home' as Key)).toThrow(/unknown key/);
  });

  it('reads scrollback only for people, through recent-unwrapped with a line count', () => {
    expect(herdrRequests.readScrollback('w1:p1', 60)).toEqual([
      'pane.read',
      { pane_id: 'w1:p1', source: 'recent-unwrapped', lines: 60, format: 'text', strip_ansi: true },
    ]);
  });

  it('types raw text without Enter or paste markers, and pastes long text through send_input', () => {
    expect(herdrRequests.sendText('w1:p1', 'x')).toEqual(['pane.send_text', { pane_id: 'w1:p1', text: 'x' }]);
    expect(herdrRequests.pasteText('w1:p1', 'a\nb')).toEqual(['pane.send_input', { pane_id: 'w1:p1', text: 'a\nb' }]);
  });

  it('types the launch line as herdr pane run does: the text, then Enter, in one send_input', () => {
    expect(herdrRequests.runLine('w1:p1', ' eval "$X"')).toEqual(['pane.send_input', { pane_id: 'w1:p1', text: ' eval "$X"', keys: ['enter'] }]);
  });
});
