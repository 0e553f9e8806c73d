/**
 * The mock agent's options: command-line flags plus environment variables, resolved once.
 * Bad values are usage errors (exit 2), reported before the terminal is touched.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { sep } from 'node:path';
import { UsageError } from '../contract/errors.ts';
import type { PermissionMode } from './layout-chrome.ts';
import { loadScenario, ScenarioError, type Scenario } from './scenario.ts';
import type { Timings } from './steps.ts';

export interface MockAgentOptions {
  /** Main-screen renderer instead of the alternate screen (also CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN=1). */
  classic?: boolean;
  /** A scenario JSON file (see scenario.ts). */
  scenario?: string;
  /** Start at the input box even in an untrusted folder. */
  skipTrust?: boolean;
  /** `default` (manual) | `acceptEdits` | `plan` | `auto`, as the real `--permission-mode`. */
  permissionMode?: string;
  /** A first prompt, submitted once the box is up (as `claude "<prompt>"`). */
  prompt?: string;
}

export interface ResolvedConfig {
  classic: boolean;
  skipTrust: boolean;
  mode: PermissionMode;
  initialPrompt: string | null;
  scenario: Scenario | null;
  timings: Timings;
  eventLogPath: string | undefined;
  /** KH_MOCK_START_FILE: nothing is drawn until this file exists (after KH_MOCK_START_MS, if both). */
  startFile: string | undefined;
  suggestion: string | null;
  /** KH_MOCK_STOP_HOOKS=1: run the Stop hooks of <cwd>/.claude/settings.local.json at a turn's end (stop-hooks.ts). */
  stopHooks: boolean;
  /** KH_MOCK_STREAM=real: a working turn writes at Claude Code's peak byte rate (real-stream.ts); default `spinner`, the spinner's ticks alone. */
  stream: 'spinner' | 'real';
  home: string;
  /** Where its .claude.json is read (the trust check). */
  configDir: string;
  cwd: string;
  cwdLabel: string;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError('bad-env', `${name} must be a positive integer (milliseconds), got ${JSON.stringify(raw)}`);
  return n;
}

function streamKind(value: string | undefined): 'spinner' | 'real' {
  if (value === undefined || value === '' || value === 'spinner') return 'spinner';
  if (value === 'real') return 'real';
  throw new UsageError('bad-env', `KH_MOCK_STREAM must be spinner or real, got ${JSON.stringify(value)}`);
}

function permissionMode(value: string | undefined): PermissionMode {
  switch (value ?? 'default') {
    case 'default':
    case 'manual':
      return 'manual';
    case 'acceptEdits':
      return 'accept-edits';
    case 'plan':
      return 'plan';
    case 'auto':
      return 'auto';
    default:
      throw new UsageError('bad-permission-mode', `--permission-mode must be default, acceptEdits, plan or auto, got ${JSON.stringify(value)}`);
  }
}

export function resolveConfig(opts: MockAgentOptions, env: NodeJS.ProcessEnv, cwd: string): ResolvedConfig {
  const timings: Timings = {
    tickMs: positiveInt(env, 'KH_MOCK_TICK_MS', 1000),
    replyMs: positiveInt(env, 'KH_MOCK_REPLY_MS', 400),
    slowMs: positiveInt(env, 'KH_MOCK_SLOW_MS', 8000),
    startMs: Number(env.KH_MOCK_START_MS ?? 0) > 0 ? positiveInt(env, 'KH_MOCK_START_MS', 0) : 0,
  };
  // A worker started by `hand dispatch` gets no flags of the test's choosing, only its caller's
  // environment: KH_MOCK_SCENARIO and KH_MOCK_PERMISSION_MODE reach it there (a flag wins).
  const scenarioFile = opts.scenario ?? (env.KH_MOCK_SCENARIO || undefined);
  let scenario: Scenario | null = null;
  if (scenarioFile) {
    try {
      scenario = loadScenario(scenarioFile, timings.tickMs);
    } catch (err) {
      if (err instanceof ScenarioError) throw new UsageError('bad-scenario', `scenario ${scenarioFile}: ${err.message}`);
      throw err;
    }
  }
  const home = env.HOME || homedir();
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // keep the given path: the trust check will then fail closed
  }
  const suggestionOn = env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION === '1' || env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION === 'true';
  return {
    classic: opts.classic === true || env.CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN === '1',
    skipTrust: opts.skipTrust === true,
    mode: permissionMode(opts.permissionMode ?? (env.KH_MOCK_PERMISSION_MODE || undefined)),
    initialPrompt: opts.prompt ?? null,
    scenario,
    timings,
    eventLogPath: env.KH_MOCK_EVENT_LOG || undefined,
    startFile: env.KH_MOCK_START_FILE || undefined,
    suggestion: suggestionOn ? (scenario?.suggestion ?? env.KH_MOCK_SUGGESTION ?? 'run the tests') : null,
    stopHooks: env.KH_MOCK_STOP_HOOKS === '1',
    stream: streamKind(env.KH_MOCK_STREAM),
    home,
    // As Claude Code 2.1.332: $CLAUDE_CONFIG_DIR/.claude.json when that is set, else $HOME/.claude.json.
    configDir: env.CLAUDE_CONFIG_DIR || home,
    cwd: real,
    cwdLabel: real === home ? '~' : real.startsWith(home + sep) ? `~${real.slice(home.length)}` : real,
  };
}
