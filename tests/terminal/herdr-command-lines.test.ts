/**
 * The herdr command lines kingshand composes (control-plane §1.4, §2.8, §2.9, §3.1, §7): pinned
 * here because each shape is a lesson — a split pane went 3 columns wide, a scrollback read
 * classified a menu answered long ago, two keys in one call raced the screen.
 */
import { describe, expect, it } from 'vitest';
import { herdrArgs, herdrKeyToken } from '../../io/terminal/herdr/herdr-cli.ts';
import { KEY_NAMES, type Key } from '../../io/terminal/types.ts';

const everyCommandLine = (): string[][] => [
  herdrArgs.statusJson(),
  herdrArgs.serverStop(),
  herdrArgs.workspaceCreate({ cwd: '/w', label: 'kingshand', env: { A: '1' } }),
  herdrArgs.workspaceList(),
  herdrArgs.paneList(),
  herdrArgs.paneGet('w1:p1'),
  herdrArgs.paneRename('w1:p1', 'worker'),
  herdrArgs.paneRun('w1:p1', "'true'"),
  herdrArgs.readVisible('w1:p1'),
  herdrArgs.readScrollback('w1:p1', 40),
  herdrArgs.sendKey('w1:p1', 'enter'),
  herdrArgs.sendText('w1:p1', 'x'),
  herdrArgs.paneClose('w1:p1'),
  herdrArgs.agentStart('w-1', 'claude', 'w1:p1', 90_000),
  herdrArgs.agentGet('w-1'),
  herdrArgs.observe('w1:p1', 120, 40),
];

describe('herdr command lines', () => {
  it('classifies only the live viewport: the screen read uses --source visible and never a recent source', () => {
    const read = herdrArgs.readVisible('w1:p1');
    expect(read.slice(0, 3)).toEqual(['pane', 'read', 'w1:p1']);
    expect(read[read.indexOf('--source') + 1]).toBe('visible');
    expect(read.join(' ')).not.toContain('recent');
  });

  it('gives every worker its own workspace without stealing focus, and never splits a pane', () => {
    const create = herdrArgs.workspaceCreate({ cwd: '/repo/wt', label: 'kingshand', env: { CLAUDE_CODE_CHILD_SESSION: '', X: 'a=b' } });
    expect(create.slice(0, 2)).toEqual(['workspace', 'create']);
    expect(create).toContain('--no-focus');
    expect(create).not.toContain('--focus');
    expect(create[create.indexOf('--cwd') + 1]).toBe('/repo/wt');
    // One --env per variable; a value may itself hold '='.
    expect(create.filter((a) => a === '--env')).toHaveLength(2);
    expect(create).toContain('CLAUDE_CODE_CHILD_SESSION=');
    expect(create).toContain('X=a=b');
    for (const argv of everyCommandLine()) expect(argv).not.toContain('split');
  });

  it('sends exactly one key per send-keys call, for every key we know', () => {
    const keys: Key[] = [...KEY_NAMES, { char: 'y' }, { char: '1' }, { char: '+' }, { char: ' ' }, { char: 'é' }];
    for (const key of keys) {
      const argv = herdrArgs.sendKey('w1:p1', key);
      expect(argv.slice(0, 3)).toEqual(['pane', 'send-keys', 'w1:p1']);
      expect(argv).toHaveLength(4);
      // herdr joins modifiers with '+': a lone '+' must be spelled `plus`, a space `space`.
      expect(argv[3]).not.toMatch(/^\s*$/);
    }
    expect(herdrKeyToken({ char: '+' })).toBe('plus');
    expect(herdrKeyToken('btab')).toBe('shift+tab');
    expect(herdrKeyToken('escape')).toBe('esc');
  });

  it('refuses a key that is not one key before composing anything', () => {
    expect(() => herdrArgs.sendKey('w1:p1', { char: 'ab' })).toThrow(/exactly one character/);
    expect(() => herdrArgs.sendKey('w1:p1', { char: '\r' })).toThrow(/control character/);
    expect(() => herdrArgs.sendKey('w1:p1', 'home' as Key)).toThrow(/unknown key/);
  });

  it('starts an agent without arguments: no --, no --permission-mode, no --add-dir', () => {
    const argv = herdrArgs.agentStart('t-9001', 'claude', 'w7:p1', 90_000);
    expect(argv).toEqual(['agent', 'start', 't-9001', '--kind', 'claude', '--pane', 'w7:p1', '--timeout', '90000']);
    expect(argv).not.toContain('--');
    expect(argv.join(' ')).not.toMatch(/--permission-mode|--add-dir/);
  });

  it('reads scrollback only for people, through recent-unwrapped with a line count', () => {
    expect(herdrArgs.readScrollback('w1:p1', 60)).toEqual(['pane', 'read', 'w1:p1', '--source', 'recent-unwrapped', '--lines', '60']);
  });
});
