/**
 * Rule: a Codex release is started with arguments it knows. kingshand passed `--no-daemon` to
 * every release, and 0.155.0 and older stop at once with "unexpected argument '--no-daemon'":
 * a worker of such a release never started. The release dispatch read is passed to the launch;
 * an unknown release gets the current releases' arguments.
 */
import { describe, expect, it } from 'vitest';
import { agentProfile } from '../../../io/agent/profiles/index.ts';

const where = (agentVersion: string | null) => ({ worktree: '/r/.claude/worktrees/w1', briefDir: '/s/workers/w1', reportDir: '/s/workers/w1/out', agentVersion });

describe('an older Codex release starts without arguments it does not know', () => {
  it.each([
    ['0.100.0', false], ['0.140.0', false], ['0.155.0', false], ['0.158.0', true], ['0.169.0', true], ['1.0.0', true], [null, true],
  ] as const)('release %s: --no-daemon %s', (version, has) => {
    const argv = agentProfile('codex').launchArgv('/bin/codex', 'off', where(version));
    expect(argv.includes('--no-daemon')).toBe(has);
  });
});
