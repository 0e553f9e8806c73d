/**
 * Dispatch without `~/.claude.json` (issue 23 item 6): the worker's trust used to be silently
 * not seeded, and the first worker then sat on the folder-trust dialog. Now dispatch writes the
 * minimal file (onboarding done, the worktree's trust entry) through the atomic, locked path and
 * says so in its result; a config directory that does not exist is refused before anything is
 * created, naming the fix.
 */
import { existsSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('no-claude-json');
  rmSync(join(w.agentHome, '.claude.json'));
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
});
afterAll(async () => {
  await w?.cleanup();
});

describe('dispatch without ~/.claude.json', () => {
  it('writes the minimal file (onboarding done, the worktree trusted), says so, and the worker never shows the trust dialog', async () => {
    const d = await w.hand(['dispatch', 'fresh', '--repo', w.repo, '--brief', w.brief('fresh', 'Say hello.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const path = join(w.agentHome, '.claude.json');
    expect(d.json.seeded).toMatchObject({ claudeJson: path, created: true });
    const text = await w.hand(['status', 'fresh']);
    expect(text.code).toBe(0);

    const settled = await w.hand(['wait', 'fresh', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(settled.json.blockedReason ?? null).toBeNull();
    const config = JSON.parse(readFileSync(path, 'utf8'));
    expect(config.hasCompletedOnboarding).toBe(true);
    expect(config.projects[realpathSync(d.json.worktree)]).toEqual({ hasTrustDialogAccepted: true });
    // The person's config: private, like Claude Code's own.
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a config directory that does not exist is refused before anything is created, naming the fix', async () => {
    const missing = join(w.root, 'no-such-config-dir');
    const d = await w.hand(['dispatch', 'nodir', '--repo', w.repo, '--brief', w.brief('nodir', 'x'), '--agent', 'mock', '--json', '--env', `CLAUDE_CONFIG_DIR=${missing}`]);
    expect(d.code).not.toBe(0);
    expect(d.stdout + d.stderr).toContain('claude-config-dir-missing');
    expect(d.stdout + d.stderr).toContain(`mkdir -p ${missing}`);
    expect(existsSync(join(w.home, 'workers', 'nodir'))).toBe(false);
    expect(existsSync(join(w.repo, '.claude', 'worktrees', 'nodir'))).toBe(false);
  });
});
