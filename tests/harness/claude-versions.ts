/**
 * Claude Code builds other than the pinned one, kept in ~/.cache/kingshand/claude/<version>
 * (outside the repository) and installed there with npm on first use. Shared by the corpus
 * capture (tests/corpus/capture.ts) and the cross-version e2e tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_BIN, PINNED_CLAUDE_VERSION } from './claude-binary.ts';

export function claudeCacheDir(version: string): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kingshand', 'claude', version);
}

/**
 * The claude executable for `version`, installing it into the cache when missing (npm, so it
 * needs the registry). Throws with the reason when it cannot be had or is another version.
 */
export function claudeBinaryFor(version: string, opts: { log?: (line: string) => void; timeoutMs?: number } = {}): string {
  if (version === PINNED_CLAUDE_VERSION) return CLAUDE_BIN;
  const dir = claudeCacheDir(version);
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    opts.log?.(`installing @anthropic-ai/claude-code@${version} into ${dir}`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${version}`], {
      stdio: opts.log ? 'inherit' : 'pipe',
      timeout: opts.timeoutMs ?? 300_000,
    });
  }
  // The installed package says its version (`claude --version` of some versions lingers, and on a
  // loaded machine a JS build can take longer to start than any sensible timeout).
  const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json');
  const installed = (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version;
  if (installed !== version) throw new Error(`${pkg} says ${String(installed)}, expected ${version}`);
  return bin;
}
