/**
 * Dispatch without `~/.claude.json` (issue 23 item 6): the worker's trust used to be silently
 * not seeded, and the first worker then sat on the folder-trust dialog. In kingshand's sandbox
 * (issue 37) the worker's agent reads a `.claude.json` of its own, made by dispatch (onboarding
 * done, the worktree trusted) — the person's file is neither needed nor written. Without the
 * sandbox (HAND_SANDBOX=off, or a machine without bubblewrap) dispatch writes the person's minimal
 * file through the atomic, locked path and says so; a config directory that does not exist is
 * refused before anything is created, naming the fix.
 */
import { existsSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
let bare: CliWorld;
beforeAll(async () => {
  [w, bare] = await Promise.all([makeCliWorld('no-claude-json'), makeCliWorld('no-claude-json-bare', { env: { HAND_SANDBOX: 'off' } })]);
  for (const world of [w, bare]) {
    rmSync(join(world.agentHome, '.claude.json'));
    expect((await world.hand(['annex', world.repo, '--yolo', '--permissions', world === bare ? 'edits' : 'off'])).code).toBe(0);
  }
});
afterAll(async () => {
  await Promise.all([w?.cleanup(), bare?.cleanup()]);
});

async function settlesWithoutTrustDialog(world: CliWorld, id: string): Promise<void> {
  const settled = await world.hand(['wait', id, '--until', 'settled', '--timeout', '30s', '--json']);
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  expect(settled.json.blockedReason ?? null).toBeNull();
}

/** The seed `d` says it made at `path`: onboarding done, the dispatched worktree trusted, private as Claude Code's own, and its worker never shows the trust dialog. */
async function expectSeeded(world: typeof w, d: { json: any }, path: string): Promise<void> {
  expect(d.json.seeded).toMatchObject({ claudeJson: path, created: true });
  await settlesWithoutTrustDialog(world, 'fresh');
  const config = JSON.parse(readFileSync(path, 'utf8'));
  expect(config.hasCompletedOnboarding).toBe(true);
  expect(config.projects[realpathSync(d.json.worktree)]).toEqual({ hasTrustDialogAccepted: true });
  expect(statSync(path).mode & 0o777).toBe(0o600);
}

describe('dispatch without ~/.claude.json', () => {
  it("in kingshand's sandbox: the worker's own file is made (onboarding done, the worktree trusted), and the person's is not written", async () => {
    const d = await w.hand(['dispatch', 'fresh', '--repo', w.repo, '--brief', w.brief('fresh', 'Say hello.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    await expectSeeded(w, d, join(w.home, 'agents', 'fresh', 'mock', '.claude.json'));
    expect(existsSync(join(w.agentHome, '.claude.json')), "the person's ~/.claude.json").toBe(false);
  });

  it('without the sandbox: writes the minimal file (onboarding done, the worktree trusted), says so, and the worker never shows the trust dialog', async () => {
    const d = await bare.hand(['dispatch', 'fresh', '--repo', bare.repo, '--brief', bare.brief('fresh', 'Say hello.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    // The person's config is written: private, like Claude Code's own.
    await expectSeeded(bare, d, join(bare.agentHome, '.claude.json'));
  });

  it('without the sandbox: a config directory that does not exist is refused before anything is created, naming the fix', async () => {
    const missing = join(bare.root, 'no-such-config-dir');
    const d = await bare.hand(['dispatch', 'nodir', '--repo', bare.repo, '--brief', bare.brief('nodir', 'x'), '--agent', 'mock', '--json', '--env', `CLAUDE_CONFIG_DIR=${missing}`]);
    expect(d.code).not.toBe(0);
    expect(d.stdout + d.stderr).toContain('claude-config-dir-missing');
    expect(d.stdout + d.stderr).toContain(`mkdir -p ${missing}`);
    expect(existsSync(join(bare.home, 'workers', 'nodir'))).toBe(false);
    expect(existsSync(join(bare.repo, '.claude', 'worktrees', 'nodir'))).toBe(false);
  });
});
