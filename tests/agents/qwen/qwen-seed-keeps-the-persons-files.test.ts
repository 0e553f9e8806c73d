/**
 * Qwen Code's seed writes the worker's settings and trust into files of its own in the brief
 * directory and never into the person's: the machine's system settings (here the file the person's
 * QWEN_CODE_SYSTEM_SETTINGS_PATH names) are kept under ours, rules and hooks included; the person's
 * trust entries are kept and their DO_NOT_TRUST is never overruled; ~/.qwen is not written; a link
 * a worker planted at the settings file's name is replaced, never written through. Each posture
 * carries the deny rules, and ask rules where the posture asks.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qwenLaunchVariables, writeQwenWorkerSettings } from '../../../io/agent/qwen/worker-settings.ts';
import { qwenWitnessHooks } from '../../../io/agent/qwen/hooks.ts';
import { useTempDirs } from '../../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();
const temp = () => tempDir('qwen-seed');

function places() {
  const root = temp();
  const home = join(root, 'home');
  const worktree = join(root, 'repo');
  const briefDir = join(root, 'state', 'workers', 'w1');
  const reportDir = join(briefDir, 'out');
  for (const d of [join(home, '.qwen'), worktree, reportDir]) mkdirSync(d, { recursive: true });
  const machine = join(root, 'etc-qwen-settings.json');
  writeFileSync(machine, JSON.stringify({ permissions: { deny: ['Bash(rm -rf *)'] }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'audit' }] }] }, model: { name: 'theirs' } }));
  writeFileSync(join(home, '.qwen', 'settings.json'), '{ "security": { "auth": { "selectedType": "openai" } } }\n');
  writeFileSync(join(home, '.qwen', 'trustedFolders.json'), JSON.stringify({ '/their/project': 'TRUST_FOLDER' }));
  const env = { HOME: home, QWEN_CODE_SYSTEM_SETTINGS_PATH: machine };
  return { root, home, worktree, briefDir, reportDir, machine, env, stateDir: join(root, 'state') };
}

describe("Qwen Code's seed keeps the person's files", () => {
  it("the machine's settings and the person's trust are kept under ours; nothing of theirs is written", () => {
    const p = places();
    const machineBefore = readFileSync(p.machine, 'utf8');
    const userBefore = readFileSync(join(p.home, '.qwen', 'settings.json'), 'utf8');
    const written = writeQwenWorkerSettings({ posture: 'ask', worktree: p.worktree, briefDir: p.briefDir, reportDir: p.reportDir, home: p.home, stateDir: p.stateDir, hooks: qwenWitnessHooks({ home: p.stateDir }) }, p.env);
    const s = JSON.parse(readFileSync(written.settings, 'utf8'));
    expect(s.model).toEqual({ name: 'theirs' });
    expect(s.permissions.deny).toEqual(expect.arrayContaining(['Bash(rm -rf *)', 'Read(~/.ssh/**)', `Edit(/${p.briefDir}/brief.md)`]));
    expect(s.permissions.ask).toEqual(['Bash', 'Edit', 'Write', 'WebFetch']);
    expect(s.hooks.Stop[0].hooks[0].command).toBe('audit');
    expect(s.hooks.Stop[1].hooks[0]).toMatchObject({ type: 'command', timeout: 10_000 });
    expect(s.hooks.Stop[1].hooks[0].command).toContain(' hook Stop');
    expect(s).toMatchObject({ $version: 4, disableAllHooks: false, general: { enableAutoUpdate: false, gitCoAuthor: { commit: false, pr: false } }, privacy: { usageStatisticsEnabled: false }, context: { includeDirectories: [p.briefDir] } });
    const trust = JSON.parse(readFileSync(written.trust, 'utf8'));
    expect(trust).toEqual({ '/their/project': 'TRUST_FOLDER', [p.worktree]: 'TRUST_FOLDER', [p.briefDir]: 'TRUST_FOLDER' });
    expect(readFileSync(p.machine, 'utf8')).toBe(machineBefore);
    expect(readFileSync(join(p.home, '.qwen', 'settings.json'), 'utf8')).toBe(userBefore);
    // The launch names our files, and the machine's defaults file stays beside the machine's settings.
    expect(qwenLaunchVariables(p.briefDir, p.env)).toEqual({
      QWEN_CODE_SYSTEM_SETTINGS_PATH: written.settings,
      QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(p.root, 'system-defaults.json'),
      QWEN_CODE_TRUSTED_FOLDERS_PATH: written.trust,
    });
  });

  it('posture off asks nothing and edits asks commands, both with the deny rules', () => {
    const p = places();
    const off = JSON.parse(readFileSync(writeQwenWorkerSettings({ posture: 'off', worktree: p.worktree, briefDir: p.briefDir, reportDir: p.reportDir, home: p.home }, p.env).settings, 'utf8'));
    expect(off.permissions.ask).toBeUndefined();
    expect(off.permissions.deny).toEqual(expect.arrayContaining(['Read(~/.aws/**)']));
    // The machine's own hook stays; no witness was asked for.
    expect(off.hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: 'audit' }] }] });
    const edits = JSON.parse(readFileSync(writeQwenWorkerSettings({ posture: 'edits', worktree: p.worktree, briefDir: p.briefDir, reportDir: p.reportDir, home: p.home }, p.env).settings, 'utf8'));
    expect(edits.permissions.ask).toEqual(['Bash', 'WebFetch']);
  });

  it("a DO_NOT_TRUST of the person's is refused, never flipped; a link planted at our file's name is replaced", () => {
    const p = places();
    writeFileSync(join(p.home, '.qwen', 'trustedFolders.json'), JSON.stringify({ [p.worktree]: 'DO_NOT_TRUST' }));
    expect(() => writeQwenWorkerSettings({ posture: 'ask', worktree: p.worktree, briefDir: p.briefDir, reportDir: p.reportDir }, p.env)).toThrow(/DO_NOT_TRUST/);
    expect(existsSync(join(p.briefDir, 'qwen-system-settings.json')), 'nothing written on a refusal').toBe(false);
    writeFileSync(join(p.home, '.qwen', 'trustedFolders.json'), '{}');
    const victim = join(p.root, 'victim.txt');
    writeFileSync(victim, 'the person\'s file\n');
    symlinkSync(victim, join(p.briefDir, 'qwen-system-settings.json'));
    writeQwenWorkerSettings({ posture: 'ask', worktree: p.worktree, briefDir: p.briefDir, reportDir: p.reportDir }, p.env);
    expect(readFileSync(victim, 'utf8')).toBe('the person\'s file\n');
    expect(lstatSync(join(p.briefDir, 'qwen-system-settings.json')).isSymbolicLink()).toBe(false);
  });
});
