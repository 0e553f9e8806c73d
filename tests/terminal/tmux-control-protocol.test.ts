import { describe, expect, it } from 'vitest';
import { parseControlLine, parseDeadValue } from '../../io/terminal/tmux/control-protocol.ts';
import { tmuxLiteral } from '../../io/terminal/tmux/tmux-command.ts';

describe('tmux control-mode lines', () => {
  it('tells reply blocks from notifications', () => {
    expect(parseControlLine('%begin 1796029685 274 1')).toEqual({ kind: 'begin', tag: '1796029685 274' });
    expect(parseControlLine('%end 1796029685 274 1')).toEqual({ kind: 'end', tag: '1796029685 274', error: false });
    expect(parseControlLine('%error 1796029685 275 1')).toEqual({ kind: 'end', tag: '1796029685 275', error: true });
  });

  it('takes only the pane from %output (the bytes are read back with capture-pane)', () => {
    expect(parseControlLine('%output %12 \\033]0;title\\007x\\134y\\015\\012')).toEqual({ kind: 'output', paneId: '%12' });
  });

  it('reads subscription values, including values that hold " : "', () => {
    expect(parseControlLine('%subscription-changed kh-dead $0 @0 0 %0 : 1-3-')).toEqual({ kind: 'subscription', name: 'kh-dead', paneId: '%0', value: '1-3-' });
    expect(parseControlLine('%subscription-changed kh-title $2 @5 0 %7 : a : b')).toMatchObject({ paneId: '%7', value: 'a : b' });
  });

  it('reads the exit status three ways: alive, exited with a status or signal, dead with status unknown', () => {
    expect(parseDeadValue('0--')).toEqual({ dead: false, code: null });
    expect(parseDeadValue('1-0-')).toEqual({ dead: true, code: 0 });
    expect(parseDeadValue('1-3-')).toEqual({ dead: true, code: 3 });
    expect(parseDeadValue('1--9')).toEqual({ dead: true, code: 137 });
    expect(parseDeadValue('1--')).toEqual({ dead: true, code: null });
  });

  it('escapes a trailing ";" so tmux does not read it as a command separator', () => {
    expect(tmuxLiteral('plain')).toBe('plain');
    expect(tmuxLiteral('a;b')).toBe('a;b');
    expect(tmuxLiteral('end;')).toBe('end\\;');
    expect(tmuxLiteral(';')).toBe('\\;');
  });
});
