/**
 * Gemini CLI's unattended start is seeded through key-preserving, atomic edits: its
 * trustedFolders.json gains exactly the worktree and the brief directory (every other entry kept,
 * a DO_NOT_TRUST for the folder refused, a file it cannot read refused untouched), and the
 * worktree's .gemini/settings.json gains only kingshand's keys (a repository's own keys kept, our
 * hooks replaced not duplicated, a tracked file refused). Each posture maps onto one approval
 * mode, and what off cannot do is said. Real files, a real git repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  GEMINI_CLI, geminiLaunchArgs, geminiPostureGap, GEMINI_PINNED, geminiWitnessHooks, seedGeminiTrust, trustedFoldersPathOf, writeGeminiSettings,
} from '../../../io/agent/gemini/index.ts';
import { agentProfile } from '../../../io/agent/profiles/index.ts';
import { useWorkerPlaces } from '../../helpers/worker-places.ts';

const places = useWorkerPlaces('gemini-seed');
let root: string;
let worktree: string;
let briefDir: string;
let home: string;
beforeEach(() => {
  ({ root, worktree, briefDir, home } = places());
});

const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, any>;

describe("Gemini CLI's trust is added to the person's trustedFolders.json, nothing else changed", () => {
  it('a missing file is created 0600 with exactly the worktree and the brief directory', async () => {
    const path = trustedFoldersPathOf({ HOME: home })!;
    expect(path).toBe(join(home, '.gemini', 'trustedFolders.json'));
    expect(await seedGeminiTrust({ path, folders: [worktree, briefDir] })).toBe('created');
    expect(read(path)).toEqual({ [worktree]: 'TRUST_FOLDER', [briefDir]: 'TRUST_FOLDER' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await seedGeminiTrust({ path, folders: [worktree, briefDir] })).toBe('already');
  });

  it("the person's own entries are kept; GEMINI_CLI_TRUSTED_FOLDERS_PATH and GEMINI_CLI_HOME are followed", async () => {
    const path = join(root, 'elsewhere.json');
    writeFileSync(path, JSON.stringify({ '/home/p/code': 'TRUST_PARENT', '/home/p/Code': 'DO_NOT_TRUST' }), { mode: 0o640 });
    expect(trustedFoldersPathOf({ HOME: home, GEMINI_CLI_TRUSTED_FOLDERS_PATH: path })).toBe(path);
    expect(trustedFoldersPathOf({ HOME: home, GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini/trustedFolders.json');
    expect(await seedGeminiTrust({ path, folders: [worktree] })).toBe('seeded');
    expect(read(path)).toEqual({ '/home/p/code': 'TRUST_PARENT', '/home/p/Code': 'DO_NOT_TRUST', [worktree]: 'TRUST_FOLDER' });
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it("a DO_NOT_TRUST for the folder itself is the person's word: refused, file untouched", async () => {
    const path = join(home, 'trust.json');
    const text = JSON.stringify({ [worktree]: 'DO_NOT_TRUST' });
    writeFileSync(path, text);
    await expect(seedGeminiTrust({ path, folders: [worktree] })).rejects.toThrow(/DO_NOT_TRUST .*kingshand does not overrule it/);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a file it cannot read whole is refused and left as it was', async () => {
    const path = join(home, 'trust.json');
    writeFileSync(path, '{ // a comment\n "/a": "TRUST_FOLDER" }');
    await expect(seedGeminiTrust({ path, folders: [worktree] })).rejects.toThrow(/is not plain JSON.*left untouched/);
    expect(readFileSync(path, 'utf8')).toContain('// a comment');
  });
});

describe("the worktree's .gemini/settings.json gets kingshand's keys only", () => {
  const settings = () => read(join(worktree, '.gemini', 'settings.json'));

  it('api-key auth only with a key; no auto-update, update notice, usage statistics or telemetry; the brief directory included', async () => {
    await writeGeminiSettings({ worktree, briefDir, env: { HOME: home, GEMINI_API_KEY: 'k' } });
    expect(settings()).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      context: { includeDirectories: [briefDir] },
    });
    await writeGeminiSettings({ worktree: worktree, briefDir, env: { HOME: home } });
    expect(settings().security.auth.selectedType).toBe('gemini-api-key'); // kept from before, never removed
    const fresh = join(root, 'other');
    mkdirSync(fresh);
    execFileSync('git', ['init', '-q', fresh]);
    await writeGeminiSettings({ worktree: fresh, briefDir, env: { HOME: home } });
    expect(read(join(fresh, '.gemini', 'settings.json')).security).toBeUndefined();
  });

  it("a file already there keeps its keys; our hooks are replaced on a second seed, theirs kept", async () => {
    mkdirSync(join(worktree, '.gemini'));
    writeFileSync(join(worktree, '.gemini', 'settings.json'), JSON.stringify({
      ui: { theme: 'Dracula' },
      context: { includeDirectories: ['/shared/docs'] },
      hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] },
    }));
    const hooks = geminiWitnessHooks({ node: '/n', handBin: '/h', home: '/s' });
    await writeGeminiSettings({ worktree, briefDir, env: {}, hooks, policyFile: '/p/deny.toml' });
    await writeGeminiSettings({ worktree, briefDir, env: {}, hooks, policyFile: '/p/deny.toml' });
    const s = settings();
    expect(s.ui).toEqual({ theme: 'Dracula' });
    expect(s.context.includeDirectories).toEqual(['/shared/docs', briefDir]);
    expect(s.policyPaths).toEqual(['/p/deny.toml']);
    expect(s.hooks.AfterAgent).toHaveLength(2);
    expect(s.hooks.AfterAgent[0].hooks[0].command).toBe('notify-send done');
    expect(s.hooks.BeforeAgent).toHaveLength(1);
  });

  it('a repository that tracks .gemini/settings.json is refused: the merged keys would be a change to commit', async () => {
    mkdirSync(join(worktree, '.gemini'));
    writeFileSync(join(worktree, '.gemini', 'settings.json'), '{"ui":{}}\n');
    execFileSync('git', ['-C', worktree, 'add', '.gemini/settings.json']);
    await expect(writeGeminiSettings({ worktree, briefDir, env: {} })).rejects.toThrow(/this repository tracks \.gemini\/settings\.json/);
    expect(readFileSync(join(worktree, '.gemini', 'settings.json'), 'utf8')).toBe('{"ui":{}}\n');
  });
});

describe('each posture is one Gemini CLI approval mode, and what it cannot do is said', () => {
  it('off is yolo, edits auto_edit, ask default, through the profile', () => {
    expect(geminiLaunchArgs('off')).toEqual(['--approval-mode', 'yolo']);
    expect(geminiLaunchArgs('edits')).toEqual(['--approval-mode', 'auto_edit']);
    expect(geminiLaunchArgs('ask')).toEqual(['--approval-mode', 'default']);
    expect(agentProfile('gemini').launchArgv('/bin/gemini', 'edits')).toEqual(['/bin/gemini', '--approval-mode', 'auto_edit']);
  });
  it("off names the sandbox it lacks; edits and ask lack nothing", () => {
    expect(geminiPostureGap('off')).toMatch(/without kingshand's sandbox/);
    expect(geminiPostureGap('edits')).toBeNull();
    expect(geminiPostureGap('ask')).toBeNull();
  });
  it('dispatch refuses a worker without a home before anything exists', () => {
    expect(agentProfile('gemini').dispatchProblem('ask', 'p', {})?.message).toMatch(/neither HOME nor GEMINI_CLI_HOME/);
    expect(agentProfile('gemini').dispatchProblem('ask', 'p', { HOME: home })).toBeNull();
  });
  it("reading the version writes nothing into the person's home: the package's own package.json, else --version under a throwaway GEMINI_CLI_HOME", async () => {
    expect(await GEMINI_CLI.versionOf(GEMINI_CLI.binary({ PATH: '' })!)).toBe(GEMINI_PINNED);
    const script = join(root, 'gemini');
    writeFileSync(script, `#!/bin/sh\necho "$GEMINI_CLI_HOME" > ${join(root, 'home-used')}\necho 9.9.9\n`, { mode: 0o755 });
    expect(await GEMINI_CLI.versionOf(script)).toBe('9.9.9');
    const used = readFileSync(join(root, 'home-used'), 'utf8').trim();
    expect(used).toMatch(/kingshand-gemini-version-/);
    expect(existsSync(used), 'the throwaway home is removed').toBe(false);
  });
});
