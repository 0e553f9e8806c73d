import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { seedTestHome } from '../harness/test-home.ts';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { isFolderTrusted } from '../../mock-agent/trust.ts';
import { UsageError } from '../../contract/errors.ts';
import { scratchDirs } from './scratch.ts';

const tempDir = scratchDirs('seedhome');
function scratch() {
  const root = tempDir();
  const home = join(root, 'home');
  const a = join(root, 'wt-a');
  const b = join(root, 'wt-b');
  for (const d of [home, a, b]) mkdirSync(d);
  return { root, home, a, b };
}

describe('throwaway HOME seed for launching Claude Code or the mock', () => {
  it('writes the minimal seed: onboarding done, key approved by its last 20 chars, worktrees trusted, manual mode', () => {
    const s = scratch();
    const key = 'sk-ant-test-0123456789abcdefghijklmnopqrstuvwxyz';
    const r = seedTestHome({ home: s.home, apiKey: key, worktrees: [s.a], manualPermissions: true });
    const cfg = JSON.parse(readFileSync(r.claudeJsonPath, 'utf8'));
    expect(r.claudeJsonPath).toBe(join(s.home, '.claude.json'));
    expect(cfg).toMatchObject({
      hasCompletedOnboarding: true,
      hasSeenAutoDefaultNotice: true,
      hasSeenAutoDefaultNudge: true,
      customApiKeyResponses: { approved: [key.slice(-20)] },
      projects: { [s.a]: { hasTrustDialogAccepted: true } },
    });
    expect(JSON.parse(readFileSync(join(s.home, '.claude', 'settings.json'), 'utf8')).permissions).toEqual({ defaultMode: 'default' });
    expect(isFolderTrusted(s.home, s.a)).toBe(true);
    expect(isFolderTrusted(s.home, s.b)).toBe(false);
  });

  it('a seeded home then takes per-worker grants through seedTrust', async () => {
    const s = scratch();
    const r = seedTestHome({ home: s.home, worktrees: [s.a] });
    expect(await seedTrust({ claudeJsonPath: r.claudeJsonPath, worktree: s.a })).toBe('already');
    expect(await seedTrust({ claudeJsonPath: r.claudeJsonPath, worktree: s.b })).toBe('seeded');
    expect(isFolderTrusted(s.home, s.b)).toBe(true);
  });

  it("refuses the account's real home (also through a symlink) and writes nothing", () => {
    const s = scratch();
    const pretendReal = join(s.root, 'pretend-real-home');
    mkdirSync(pretendReal);
    symlinkSync(pretendReal, join(s.root, 'alias'));
    for (const home of [pretendReal, join(s.root, 'alias')]) {
      expect(() => seedTestHome({ home, worktrees: [s.a] }, { realHome: pretendReal })).toThrow(UsageError);
    }
    expect(existsSync(join(pretendReal, '.claude.json'))).toBe(false);
    expect(existsSync(join(pretendReal, '.claude'))).toBe(false);
  });
});
