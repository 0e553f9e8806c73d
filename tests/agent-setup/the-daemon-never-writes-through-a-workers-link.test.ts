/**
 * Rule: a file a worker controls never becomes a path the daemon follows (issue 37 item 2). Each
 * launch the daemon writes the agent's settings into the worker's own worktree (Claude Code's
 * .claude/settings.local.json, Gemini CLI's .gemini/settings.json) and trust into the worker's
 * agent directory. A worker without kingshand's sandbox (another host, posture edits where the
 * sandbox cannot be built) can leave a link there: to another repository's .claude, to the
 * person's own settings. The link is removed and a file of the daemon's made in its place; what it
 * pointed to is neither read nor written.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeClaudeSettings } from '../../io/agent/claude/worktree-settings.ts';
import { writeGeminiSettings } from '../../io/agent/gemini/workspace-settings.ts';
import { claudeSandboxHome } from '../../io/agent/claude/sandbox-home.ts';
import { prepareAgentHome } from '../../io/sandbox/agent-home.ts';
import { makeTempDir } from '../helpers/temp.ts';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function world() {
  const tmp = makeTempDir('worker-links');
  dirs.push(tmp);
  const worktree = join(tmp.path, 'wt');
  const briefDir = join(tmp.path, 'brief');
  const persons = join(tmp.path, 'persons');
  for (const d of [worktree, briefDir, persons]) mkdirSync(d, { recursive: true });
  execFileSync('git', ['init', '-q', worktree]);
  return { root: tmp.path, worktree, briefDir, persons };
}

describe("the daemon never writes through a worker's link", () => {
  it("Claude Code's settings: a .claude linked to another repository's leaves that one untouched", () => {
    const w = world();
    const other = join(w.persons, 'other-repo', '.claude');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'settings.local.json'), '{"persons":true}\n');
    symlinkSync(other, join(w.worktree, '.claude'));
    writeClaudeSettings({ worktree: w.worktree, briefDir: w.briefDir, permissionMode: 'bypassPermissions' });
    expect(readFileSync(join(other, 'settings.local.json'), 'utf8')).toBe('{"persons":true}\n');
    expect(lstatSync(join(w.worktree, '.claude')).isDirectory()).toBe(true);
    expect(JSON.parse(readFileSync(join(w.worktree, '.claude', 'settings.local.json'), 'utf8')).permissions).toBeDefined();
  });

  it("Claude Code's settings: the file itself linked to the person's is replaced, not written through", () => {
    const w = world();
    const target = join(w.persons, 'settings.json');
    writeFileSync(target, '{"persons":true}\n');
    mkdirSync(join(w.worktree, '.claude'));
    symlinkSync(target, join(w.worktree, '.claude', 'settings.local.json'));
    writeClaudeSettings({ worktree: w.worktree, briefDir: w.briefDir, permissionMode: 'acceptEdits' });
    expect(readFileSync(target, 'utf8')).toBe('{"persons":true}\n');
    expect(lstatSync(join(w.worktree, '.claude', 'settings.local.json')).isFile()).toBe(true);
  });

  it("Gemini CLI's settings: a linked settings.json is neither read into the worktree nor written through", async () => {
    const w = world();
    const target = join(w.persons, 'secret-settings.json');
    writeFileSync(target, '{"persons":"kh-secret-not-for-the-worktree"}\n');
    mkdirSync(join(w.worktree, '.gemini'));
    symlinkSync(target, join(w.worktree, '.gemini', 'settings.json'));
    await writeGeminiSettings({ worktree: w.worktree, briefDir: w.briefDir, env: { HOME: w.persons } });
    expect(readFileSync(target, 'utf8')).toBe('{"persons":"kh-secret-not-for-the-worktree"}\n');
    const written = readFileSync(join(w.worktree, '.gemini', 'settings.json'), 'utf8');
    expect(written).not.toContain('kh-secret');
    expect(lstatSync(join(w.worktree, '.gemini', 'settings.json')).isFile()).toBe(true);
  });

  it("the worker's agent directory: a .claude.json linked to the person's is replaced by a copy, the person's untouched", () => {
    const w = world();
    const persons = join(w.persons, '.claude.json');
    writeFileSync(persons, JSON.stringify({ hasCompletedOnboarding: true, projects: { '/elsewhere': { hasTrustDialogAccepted: true } } }));
    const own = join(w.root, 'agents', 'a1', 'claude');
    mkdirSync(own, { recursive: true });
    symlinkSync(persons, join(own, '.claude.json'));
    const before = readFileSync(persons, 'utf8');
    prepareAgentHome(claudeSandboxHome, join(w.persons, '.claude'), own, { HOME: w.persons });
    expect(lstatSync(join(own, '.claude.json')).isFile(), 'a file of its own now').toBe(true);
    expect(readFileSync(persons, 'utf8')).toBe(before);
    const copy = JSON.parse(readFileSync(join(own, '.claude.json'), 'utf8'));
    expect(copy.hasCompletedOnboarding).toBe(true);
    expect(copy.projects, "the person's other projects are not the worker's").toBeUndefined();
  });
});
