/**
 * The environment and the throwaway HOME for running the real Claude Code binary against a
 * fake model server (reference: claude-code.md §2 and §4). Used by the end-to-end tests and the
 * benchmarks; nothing here reads the caller's own environment or ~/.claude.json.
 */
import { mkdirSync } from 'node:fs';
import { writePrivateFile } from '../../io/fs/private-files.ts';
import { join } from 'node:path';
import { trustKey } from '../../io/agent/claude/trust-seed.ts';

export type ClaudeRenderer = 'fullscreen' | 'classic';

export interface ClaudeTestEnvOptions {
  /** The throwaway HOME (also holds Claude Code's temp dir and runtime dir). */
  home: string;
  /** ANTHROPIC_BASE_URL, e.g. the fake server's url. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`: needs no approval in ~/.claude.json. The default credential. */
  authToken?: string;
  /** Sent as `x-api-key`: only used once its last 20 characters are approved in ~/.claude.json. */
  apiKey?: string;
  renderer: ClaudeRenderer;
  /** Turns prompt suggestions on (they are off by a feature flag otherwise). Default false. */
  promptSuggestions?: boolean;
  /** PATH for the process (and so for its Bash tool). */
  path?: string;
}

export const DEFAULT_TEST_AUTH_TOKEN = 'kh-fake-token-not-a-secret';
export const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Where Claude Code's temp files and messaging socket go, instead of the shared /tmp. */
export function claudeScratchDirs(home: string): { tmpDir: string; runtimeDir: string } {
  return { tmpDir: join(home, '.cctmp'), runtimeDir: join(home, '.ccrun') };
}

/**
 * The complete environment of a Claude Code test process. Complete means the caller launches
 * with nothing inherited (`env -i`, or a host that passes exactly this block): the person's own
 * keys and CLAUDE_* settings must never reach a test.
 */
export function claudeTestEnv(opts: ClaudeTestEnvOptions): Record<string, string> {
  const { tmpDir, runtimeDir } = claudeScratchDirs(opts.home);
  const env: Record<string, string> = {
    PATH: opts.path ?? DEFAULT_PATH,
    HOME: opts.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    USER: 'kh-tester',
    ANTHROPIC_BASE_URL: opts.baseUrl,
    // Each of these also keeps a test from calling any host but the fake.
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Without it every start clones the official plugin marketplace from github.com in the
    // background (ssh, git: six more processes a start, failing offline), the switch above
    // notwithstanding.
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    CLAUDE_CODE_TMPDIR: tmpDir,
    XDG_RUNTIME_DIR: runtimeDir,
    // Claude Code reads this as a boolean: "0" pins suggestions off rather than leaving it to a flag.
    CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: opts.promptSuggestions ? '1' : '0',
  };
  // The renderer otherwise follows a remote flag that the telemetry switches above change (§6.1).
  if (opts.renderer === 'fullscreen') env.CLAUDE_CODE_NO_FLICKER = '1';
  else env.CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN = '1';
  if (opts.apiKey !== undefined) env.ANTHROPIC_API_KEY = opts.apiKey;
  if (opts.authToken !== undefined || opts.apiKey === undefined) {
    env.ANTHROPIC_AUTH_TOKEN = opts.authToken ?? DEFAULT_TEST_AUTH_TOKEN;
  }
  return env;
}

export interface SeedClaudeHomeOptions {
  home: string;
  /**
   * Worktrees to mark trusted, written with the same key rule as the product's seedTrust
   * (io/agent/claude/trust-seed.ts). Empty = every folder shows the trust dialog; the e2e
   * harness passes none and then calls seedTrust itself, so the tests exercise that code.
   */
  worktrees: string[];
  /** The API key the process will get; its last 20 characters are approved. */
  apiKey?: string;
  /** Start in manual permission mode, so writes ask first (auto mode never asks against the fake). */
  manualPermissions?: boolean;
  /** Pin the renderer in settings too (the env pins it as well). */
  renderer?: ClaudeRenderer;
}

export interface SeededClaudeHome {
  claudeJsonPath: string;
  settingsPath: string;
}

/** Claude Code approves a custom key by its last 20 characters. */
export function apiKeySuffix(key: string): string {
  return key.slice(-20);
}

/**
 * Writes the minimal seed that lands Claude Code 2.1.332 straight on the idle box: onboarding
 * done, the key approved, the auto-mode notice and nudge seen, each worktree trusted by its
 * exact real path (trusting a parent does not cover a child).
 */
export function seedClaudeHome(opts: SeedClaudeHomeOptions): SeededClaudeHome {
  const { tmpDir, runtimeDir } = claudeScratchDirs(opts.home);
  mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
  mkdirSync(join(opts.home, '.claude'), { recursive: true, mode: 0o700 });

  const projects: Record<string, { hasTrustDialogAccepted: boolean }> = {};
  for (const w of opts.worktrees) projects[trustKey(w)] = { hasTrustDialogAccepted: true };
  const claudeJson = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: '2.1.332',
    hasSeenAutoDefaultNotice: true,
    // Without it a manual defaultMode raises "Make auto mode your default?" ~1.5 s after the box.
    hasSeenAutoDefaultNudge: true,
    ...(opts.apiKey !== undefined ? { customApiKeyResponses: { approved: [apiKeySuffix(opts.apiKey)], rejected: [] } } : {}),
    projects,
  };
  const claudeJsonPath = join(opts.home, '.claude.json');
  writePrivateFile(claudeJsonPath, JSON.stringify(claudeJson, null, 2) + '\n');

  const settings: Record<string, unknown> = { theme: 'dark' };
  if (opts.manualPermissions) settings.permissions = { defaultMode: 'default' };
  if (opts.renderer) settings.tui = opts.renderer === 'fullscreen' ? 'fullscreen' : 'default';
  const settingsPath = join(opts.home, '.claude', 'settings.json');
  writePrivateFile(settingsPath, JSON.stringify(settings, null, 2) + '\n');
  return { claudeJsonPath, settingsPath };
}
