/**
 * The herdr command lines kingshand composes (control-plane §1.4, §2.8, §2.9): pinned here because
 * each shape is a lesson — a split pane went 3 columns wide, an agent start with arguments lost
 * them. Reads and keys go over the socket: herdr-socket-requests.test.ts pins those.
 */
import { describe, expect, it } from 'vitest';
import { herdrArgs } from '../../io/terminal/herdr/herdr-cli.ts';

const everyCommandLine = (): string[][] => [
  herdrArgs.statusJson(),
  herdrArgs.serverStop(),
  herdrArgs.workspaceCreate({ cwd: '/w', label: 'kingshand', env: { A: '1' } }),
  herdrArgs.paneRename('w1:p1', 'worker'),
  herdrArgs.agentStart('w-1', 'claude', 'w1:p1', 90_000),
  herdrArgs.agentGet('w-1'),
  herdrArgs.observe('w1:p1', 120, 40),
];

describe('herdr command lines', () => {
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

  it('starts an agent without arguments: no --, no --permission-mode, no --add-dir', () => {
    const argv = herdrArgs.agentStart('t-9001', 'claude', 'w7:p1', 90_000);
    expect(argv).toEqual(['agent', 'start', 't-9001', '--kind', 'claude', '--pane', 'w7:p1', '--timeout', '90000']);
    expect(argv).not.toContain('--');
    expect(argv.join(' ')).not.toMatch(/--permission-mode|--add-dir/);
  });
});
