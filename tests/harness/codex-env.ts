/**
 * The environment and throwaway CODEX_HOME for running the real Codex CLI against the fake
 * Responses API (io/fake-model/codex.ts). Nothing here reads the caller's own environment or
 * ~/.codex: the config names one custom provider on 127.0.0.1 and nothing else.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKE_OPENAI_KEY_ENV = 'KH_FAKE_OPENAI_KEY';
export const FAKE_OPENAI_KEY = 'kh-fake-openai-key-not-a-secret';
export const FAKE_CODEX_MODEL = 'gpt-fake';
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface CodexTestHome {
  home: string;
  codexHome: string;
  configPath: string;
  /** Codex's temp dir: NOT an ancestor of CODEX_HOME, or Codex will not set up its sandbox helper. */
  tmpDir: string;
}

/**
 * The provider block a person would write to use an OpenAI-compatible endpoint: `base_url` with
 * `/v1`, the Responses wire, the key read from an environment variable (no login needed).
 */
export function codexProviderToml(baseUrl: string): string {
  return [
    `model = "${FAKE_CODEX_MODEL}"`,
    'model_provider = "khfake"',
    '',
    '[model_providers.khfake]',
    'name = "kingshand fake"',
    `base_url = "${baseUrl}/v1"`,
    'wire_api = "responses"',
    `env_key = "${FAKE_OPENAI_KEY_ENV}"`,
    // The fake answers at once; Codex's default retries would only slow a failing test down.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

/** A HOME with `.codex/config.toml` holding the fake provider (no trust entries: seeding adds them). */
export function seedCodexHome(home: string, baseUrl: string): CodexTestHome {
  const codexHome = join(home, '.codex');
  const tmpDir = join(home, '.tmp');
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  const configPath = join(codexHome, 'config.toml');
  writeFileSync(configPath, codexProviderToml(baseUrl), { mode: 0o600 });
  return { home, codexHome, configPath, tmpDir };
}

/** The complete environment of a Codex test process (launched with nothing inherited). */
export function codexTestEnv(t: CodexTestHome, opts: { path?: string } = {}): Record<string, string> {
  return {
    PATH: opts.path ?? DEFAULT_PATH,
    HOME: t.home,
    CODEX_HOME: t.codexHome,
    TMPDIR: t.tmpDir,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    USER: 'kh-tester',
    [FAKE_OPENAI_KEY_ENV]: FAKE_OPENAI_KEY,
  };
}
