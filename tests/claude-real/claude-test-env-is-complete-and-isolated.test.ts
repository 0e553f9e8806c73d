import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeySuffix, claudeScratchDirs, claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { makeTempDir } from '../helpers/temp.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function tempHomeAndWorktree() {
  const tmp = makeTempDir('claude-env');
  cleanups.push(tmp.cleanup);
  const home = join(tmp.path, 'home');
  const worktree = join(tmp.path, 'repo');
  mkdirSync(home);
  mkdirSync(worktree);
  return { root: tmp.path, home, worktree };
}

describe('claudeTestEnv', () => {
  it('is built from its options only: nothing of the caller\'s environment leaks in', () => {
    const saved = { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };
    process.env.ANTHROPIC_API_KEY = 'sk-callers-own-key';
    process.env.CLAUDE_CONFIG_DIR = '/callers/config';
    try {
      const env = claudeTestEnv({ home: '/h', baseUrl: 'http://127.0.0.1:1', renderer: 'fullscreen' });
      expect(JSON.stringify(env)).not.toMatch(/callers/);
      expect(env.HOME).toBe('/h');
      expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:1');
    } finally {
      // Put back what was there (the real env object stays: a worker process runs other files after this one).
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('keeps Claude Code\'s temp and runtime dirs inside the throwaway HOME', () => {
    const env = claudeTestEnv({ home: '/h', baseUrl: 'http://x', renderer: 'classic' });
    const dirs = claudeScratchDirs('/h');
    expect(env.CLAUDE_CODE_TMPDIR).toBe(dirs.tmpDir);
    expect(env.XDG_RUNTIME_DIR).toBe(dirs.runtimeDir);
    expect(dirs.tmpDir.startsWith('/h/')).toBe(true);
    expect(dirs.runtimeDir.startsWith('/h/')).toBe(true);
  });

  it('pins exactly one renderer', () => {
    const full = claudeTestEnv({ home: '/h', baseUrl: 'http://x', renderer: 'fullscreen' });
    const classic = claudeTestEnv({ home: '/h', baseUrl: 'http://x', renderer: 'classic' });
    expect([full.CLAUDE_CODE_NO_FLICKER, full.CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN]).toEqual(['1', undefined]);
    expect([classic.CLAUDE_CODE_NO_FLICKER, classic.CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN]).toEqual([undefined, '1']);
  });

  it('uses a bearer token unless an API key is given, and pins prompt suggestions on or off', () => {
    const byDefault = claudeTestEnv({ home: '/h', baseUrl: 'http://x', renderer: 'classic' });
    expect(byDefault.ANTHROPIC_AUTH_TOKEN).toBeTruthy();
    expect(byDefault.ANTHROPIC_API_KEY).toBeUndefined();
    expect(byDefault.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION).toBe('0');
    const keyed = claudeTestEnv({ home: '/h', baseUrl: 'http://x', renderer: 'classic', apiKey: 'sk-k', promptSuggestions: true });
    expect(keyed.ANTHROPIC_API_KEY).toBe('sk-k');
    expect(keyed.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    expect(keyed.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION).toBe('1');
  });
});

describe('seedClaudeHome', () => {
  it('trusts each worktree by its real path, approves the key by its last 20 characters, and marks onboarding done', () => {
    const { root, home, worktree } = tempHomeAndWorktree();
    const link = join(root, 'link-to-repo');
    symlinkSync(worktree, link);
    const key = 'sk-ant-api03-' + 'x'.repeat(40) + 'ABCDEFGHIJKLMNOPQRST';
    const { claudeJsonPath, settingsPath } = seedClaudeHome({ home, worktrees: [link], apiKey: key, manualPermissions: true, renderer: 'classic' });
    const seed = JSON.parse(readFileSync(claudeJsonPath, 'utf8'));
    expect(Object.keys(seed.projects)).toEqual([worktree]);
    expect(seed.projects[worktree].hasTrustDialogAccepted).toBe(true);
    expect(seed.customApiKeyResponses.approved).toEqual(['ABCDEFGHIJKLMNOPQRST']);
    expect(apiKeySuffix(key)).toBe('ABCDEFGHIJKLMNOPQRST');
    expect(seed).toMatchObject({ hasCompletedOnboarding: true, hasSeenAutoDefaultNotice: true, hasSeenAutoDefaultNudge: true });
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({ theme: 'dark', permissions: { defaultMode: 'default' }, tui: 'default' });
  });

  it('leaves an empty project list when no worktree is given (every folder then asks for trust)', () => {
    const { home } = tempHomeAndWorktree();
    const { claudeJsonPath, settingsPath } = seedClaudeHome({ home, worktrees: [] });
    expect(JSON.parse(readFileSync(claudeJsonPath, 'utf8')).projects).toEqual({});
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({ theme: 'dark' });
  });
});
