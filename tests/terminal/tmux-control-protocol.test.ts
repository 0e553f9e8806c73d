import { describe, expect, it } from 'vitest';
import { parseControlLine, parseDeadValue } from '../../io/terminal/tmux/control-protocol.ts';
import { TmuxControlClient } from '../../io/terminal/tmux/control-client.ts';
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

describe('%output lines read off the bytes by the control client', () => {
  it('names each line\'s pane and hands on its payload, the same pane by the same id every time, "%07" never taken for "%7"', () => {
    const seen: Array<[string, string]> = [];
    // The client's line reader alone, without a tmux behind it (its constructor spawns one).
    const client = Object.assign(Object.create(TmuxControlClient.prototype) as object, {
      paneIds: [], outputPaneId: '', partial: Buffer.alloc(0), received: 0, block: null, textPane: null, sawFirstBlock: true, pending: [],
      handlers: { onOutput: (paneId: string, data: Buffer, start: number, end: number) => seen.push([paneId, data.toString('latin1', start, end)]), onSubscription() {}, onClose() {} },
    }) as unknown as { onData(chunk: Buffer): void };
    const lines = ['%output %0 a', '%output %12 b\\033[K', '%output %12 c', '%output %07 d', '%output %7 e', '%output %7 f', '%output %0 g'];
    const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
    client.onData(bytes.subarray(0, 20)); // a line cut between two reads
    client.onData(bytes.subarray(20));
    expect(seen).toEqual([['%0', 'a'], ['%12', 'b\\033[K'], ['%12', 'c'], ['%07', 'd'], ['%7', 'e'], ['%7', 'f'], ['%0', 'g']]);
  });
});
