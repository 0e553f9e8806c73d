/**
 * What each permission posture writes into a worker's settings.local.json, the launch flag it
 * needs, and the refusal as root (io/agent/claude/permissions.ts). The real binary's reading of
 * these files is proven in tests/claude-e2e/permission-posture.test.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeLaunchArgs, denyRules, parsePermissionPosture, rootProblem, writePostureSettings } from '../../io/agent/claude/permissions.ts';
import { openStore } from '../../persistence/sqlite-store.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();

function dirs() {
  const root = tempDir('posture');
  const worktree = join(root, 'wt');
  const briefDir = join(root, 'state', 'workers', 'w1');
  mkdirSync(worktree, { recursive: true });
  mkdirSync(briefDir, { recursive: true });
  return { worktree, briefDir, state: join(root, 'state'), agentHome: join(root, 'home') };
}

describe('permission posture settings', () => {
  it('off asks for nothing: bypass mode, the warning pre-seeded, deny list and write fence', () => {
    const d = dirs();
    const { path } = writePostureSettings('off', { worktree: d.worktree, briefDir: d.briefDir, agentHome: d.agentHome, stateDir: d.state });
    const s = JSON.parse(readFileSync(path, 'utf8'));
    expect(path).toBe(join(d.worktree, '.claude', 'settings.local.json'));
    expect(s.permissions.defaultMode).toBe('bypassPermissions');
    expect(s.skipDangerousModePermissionPrompt).toBe(true);
    expect(s.permissions.blockWritesOutsideWorkingDirectories).toBe(true);
    expect(s.permissions.additionalDirectories).toEqual([d.briefDir]);
    expect(s.permissions.deny).toEqual(expect.arrayContaining(['Read(~/.ssh/**)', `Read(/${d.agentHome}/.ssh/**)`, 'Read(~/.aws/**)', 'Read(~/.claude/.credentials.json)']));
    expect(s.permissions.deny).toEqual(expect.arrayContaining([`Read(/${d.state}/fleet.db)`, `Edit(/${d.state}/**/instructions.md)`]));
    // Claude Code 2.1.332 says a Write(<path>) rule never matches (Edit covers writes) and warns on screen for each.
    expect(s.permissions.deny.filter((r: string) => r.startsWith('Write('))).toEqual([]);
  });

  it('edits and ask keep the deny list but never pre-seed the bypass warning', () => {
    const d = dirs();
    for (const [posture, mode] of [['edits', 'acceptEdits'], ['ask', 'default']] as const) {
      const s = JSON.parse(readFileSync(writePostureSettings(posture, { worktree: d.worktree, briefDir: d.briefDir }).path, 'utf8'));
      expect(s.permissions.defaultMode).toBe(mode);
      expect(s.skipDangerousModePermissionPrompt).toBeUndefined();
      expect(s.permissions.deny).toContain('Read(~/.ssh/**)');
    }
  });

  it('only off adds a launch flag: settings alone cannot ask 2.1.332 for bypass', () => {
    expect(claudeLaunchArgs('off')).toEqual(['--permission-mode', 'bypassPermissions']);
    expect(claudeLaunchArgs('edits')).toEqual([]);
    expect(claudeLaunchArgs('ask')).toEqual([]);
  });

  it('the deny list never grants: every rule is a Read, Edit or Write rule', () => {
    for (const r of denyRules({ agentHome: '/h', stateDir: '/s', instructionsFiles: ['/hand/instructions.md'] })) expect(r).toMatch(/^(Read|Edit|Write)\(/);
  });

  it('an unknown posture is bad usage naming the three', () => {
    expect(() => parsePermissionPosture('yolo')).toThrow(/off.*edits.*ask/s);
    expect(parsePermissionPosture(undefined)).toBe('off');
  });

  it('off as root is refused unless IS_SANDBOX=1, with the ways out', () => {
    expect(rootProblem('off', 'shop', {}, 0)?.message).toMatch(/root.*IS_SANDBOX=1.*hand project set shop --permissions edits/s);
    expect(rootProblem('off', 'shop', { IS_SANDBOX: '1' }, 0)).toBeNull();
    expect(rootProblem('edits', 'shop', {}, 0)).toBeNull();
    expect(rootProblem('off', 'shop', {}, 1000)).toBeNull();
  });

  it('a project stored before posture existed reads as off (migration 3 default)', () => {
    const d = dirs();
    const store = openStore(join(d.state, 'fleet.db'));
    try {
      store.upsertProject({ name: 'p', repo: '/srv/p', posture: 'local-only', yolo: false, registeredAt: 1 });
      expect(store.getProject('p')?.permissions).toBe('off');
      store.upsertProject({ name: 'p', repo: '/srv/p', posture: 'local-only', yolo: false, registeredAt: 1, permissions: 'ask' });
      expect(store.getProject('p')?.permissions).toBe('ask');
      expect(store.schemaVersion).toBeGreaterThanOrEqual(3);
    } finally {
      store.close();
    }
  });
});
