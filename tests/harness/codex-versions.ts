/**
 * Codex CLI builds other than the pinned one, kept in ~/.cache/kingshand/codex/<version> (outside
 * the repository) and installed there with npm on first use, for the second-version corpus.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { codexBinary } from '../../io/agent/codex/launch.ts';

export const PINNED_CODEX_VERSION = '0.169.0';

export function codexCacheDir(version: string): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kingshand', 'codex', version);
}

export function codexBinaryFor(version: string, opts: { log?: (line: string) => void; timeoutMs?: number } = {}): string {
  if (version === PINNED_CODEX_VERSION) {
    const pinned = codexBinary({ PATH: '' });
    if (pinned === null) throw new Error('node_modules/.bin/codex is missing: run npm ci');
    return pinned;
  }
  const dir = codexCacheDir(version);
  const bin = join(dir, 'node_modules', '.bin', 'codex');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    opts.log?.(`installing @openai/codex@${version} into ${dir}`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `@openai/codex@${version}`], {
      stdio: opts.log ? 'inherit' : 'pipe',
      timeout: opts.timeoutMs ?? 600_000,
    });
  }
  const pkg = join(dir, 'node_modules', '@openai', 'codex', 'package.json');
  const installed = (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version;
  if (installed !== version) throw new Error(`${pkg} says ${String(installed)}, expected ${version}`);
  return bin;
}
