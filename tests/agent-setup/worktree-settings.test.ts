import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTRIBUTION_OFF, writeClaudeSettings, type ClaudePermissionMode } from '../../io/agent/claude/worktree-settings.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { scratchDirs } from './scratch.ts';

const tempDir = scratchDirs('settings');
function layout() {
  const root = tempDir();
  const worktree = join(root, 'repo', '.claude', 'worktrees', 'T-1');
  const briefDir = join(root, 'state', 'workers', 'T-1');
  mkdirSync(worktree, { recursive: true });
  mkdirSync(briefDir, { recursive: true });
  return { root, worktree, briefDir, file: join(worktree, '.claude', 'settings.local.json') };
}

describe('worker settings.local.json', () => {
  it('attribution is off for every worker: the object form 2.1.332 reads and includeCoAuthoredBy false for older builds', () => {
    const l = layout();
    writeClaudeSettings({ worktree: l.worktree, briefDir: l.briefDir, permissionMode: 'default' });
    const s = JSON.parse(readFileSync(l.file, 'utf8'));
    expect(s.attribution).toEqual({ commit: '', pr: '' });
    expect(s.includeCoAuthoredBy).toBe(false);
  });

  it('holds exactly defaultMode and an array with only the brief directory: no deny, env or model', () => {
    const l = layout();
    const r = writeClaudeSettings({ worktree: l.worktree, briefDir: l.briefDir, permissionMode: 'bypassPermissions' });
    expect(r.path).toBe(l.file);
    expect(JSON.parse(readFileSync(l.file, 'utf8'))).toEqual({
      permissions: { defaultMode: 'bypassPermissions', additionalDirectories: [l.briefDir] },
      ...ATTRIBUTION_OFF,
    });
    expect(readdirSync(join(l.worktree, '.claude'))).toEqual(['settings.local.json']); // no temp file left
  });

  it('is overwritten, never merged, on re-dispatch', () => {
    const l = layout();
    mkdirSync(join(l.worktree, '.claude'));
    writeFileSync(l.file, JSON.stringify({ permissions: { deny: ['Read(//**)'], additionalDirectories: ['/data'] }, env: { X: '1' }, model: 'opus' }));
    writeClaudeSettings({ worktree: l.worktree, briefDir: l.briefDir, permissionMode: 'default' });
    expect(JSON.parse(readFileSync(l.file, 'utf8'))).toEqual({ permissions: { defaultMode: 'default', additionalDirectories: [l.briefDir] }, ...ATTRIBUTION_OFF });
  });

  it('refuses a worktree that does not exist and never creates it', () => {
    const l = layout();
    const missing = join(l.root, 'repo', '.claude', 'worktrees', 'T-2');
    expect(() => writeClaudeSettings({ worktree: missing, briefDir: l.briefDir, permissionMode: 'default' })).toThrow(RefusedError);
    expect(() => writeClaudeSettings({ worktree: missing, briefDir: l.briefDir, permissionMode: 'default' })).toThrow(missing);
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses a brief directory that is relative or missing', () => {
    const l = layout();
    for (const briefDir of ['state/workers/T-1', join(l.root, 'nope')]) {
      expect(() => writeClaudeSettings({ worktree: l.worktree, briefDir, permissionMode: 'default' })).toThrow(/brief directory/);
    }
    expect(existsSync(l.file)).toBe(false);
  });

  it('refuses a permission mode Claude Code does not know', () => {
    const l = layout();
    expect(() => writeClaudeSettings({ worktree: l.worktree, briefDir: l.briefDir, permissionMode: 'yolo' as ClaudePermissionMode })).toThrow(UsageError);
  });
});
