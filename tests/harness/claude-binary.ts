/**
 * The pinned Claude Code binary. A missing or different binary is a failure with a message
 * saying how to fix it, never a skipped test: the end-to-end suite exists to catch drift.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PINNED_CLAUDE_VERSION = '2.1.332';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLAUDE_BIN = join(ROOT, 'node_modules', '.bin', 'claude');

/** The binary's real path after checking its version; throws a clear error otherwise. */
export function requireClaudeBinary(): string {
  const fix = `run \`npm ci\` in ${ROOT} (devDependency @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}, its postinstall links the native binary)`;
  if (!existsSync(CLAUDE_BIN)) throw new Error(`Claude Code binary missing at ${CLAUDE_BIN}: ${fix}`);
  let out: string;
  try {
    out = execFileSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 20_000, env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' } });
  } catch (err) {
    throw new Error(`Claude Code binary at ${CLAUDE_BIN} does not run (${String(err)}): ${fix}`);
  }
  const version = out.trim().split(/\s+/)[0];
  if (version !== PINNED_CLAUDE_VERSION) {
    throw new Error(`Claude Code at ${CLAUDE_BIN} is ${out.trim()}, the tests are pinned to ${PINNED_CLAUDE_VERSION}: ${fix}`);
  }
  return realpathSync(CLAUDE_BIN);
}
