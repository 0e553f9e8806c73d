/**
 * Finding Qwen Code and its version. HAND_QWEN_BIN (absolute, in the daemon's environment) picks
 * another build, as HAND_GEMINI_BIN does; then the pinned node_modules/.bin/qwen; then PATH. The
 * npm package's `qwen` is its bundle, `<pkg>/cli.js`, a Node script (0.15.x: Node 20 or later).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findAgentBinary } from '../find-binary.ts';

export const QWEN_PACKAGE = '@qwen-code/qwen-code';
/** The newest release that runs on Node 20 (0.21 and later ask for Node 22). */
export const QWEN_PINNED = '0.15.10';
export const FIX_QWEN = `npm install --save-exact ${QWEN_PACKAGE}@${QWEN_PINNED}`;

export function qwenBinary(env: Record<string, string | undefined> = process.env): string | null {
  return findAgentBinary('qwen', 'HAND_QWEN_BIN', env);
}

/** `0.15.10` from `qwen --version`'s output (the bare version), or null. */
export function parseQwenVersion(text: string): string | null {
  const m = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(text.trim());
  return m ? m[1]! : null;
}

/** A package.json's text (the @qwen-code/qwen-code one) or `qwen --version`'s output → the version, or null. */
export function parseQwenPackageOrVersion(text: string): string | null {
  try {
    const json = JSON.parse(text) as { name?: unknown; version?: unknown };
    return json.name === QWEN_PACKAGE && typeof json.version === 'string' ? parseQwenVersion(json.version) : null;
  } catch {
    return parseQwenVersion(text);
  }
}

/**
 * On another host, one constant script ($1: a home of kingshand's own for the fallback): the
 * package.json beside the real program (npm links `qwen` to `<pkg>/cli.js`), else `qwen
 * --version` in that home (it makes `~/.qwen` in the home it is given).
 */
export const FAR_QWEN_VERSION = 'p=$(command -v qwen) && p=$(readlink -f -- "$p") && cat -- "${p%/*}/package.json" 2>/dev/null && exit 0; QWEN_HOME=$1 QWEN_CODE_NO_RELAUNCH=true exec qwen --version';

/** The version of the package `bin` belongs to (`<pkg>/cli.js` → `<pkg>/package.json`), or null. */
export function qwenPackageVersion(bin: string): string | null {
  try {
    const json = JSON.parse(readFileSync(join(dirname(realpathSync(bin)), 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return json.name === QWEN_PACKAGE && typeof json.version === 'string' ? parseQwenVersion(json.version) : null;
  } catch {
    return null;
  }
}

/** The version of `bin`: its package.json, else `qwen --version` with a throwaway QWEN_HOME; could-not-tell is null. */
export function qwenVersionOf(bin: string, timeoutMs = 15_000): Promise<string | null> {
  const fromPackage = qwenPackageVersion(bin);
  if (fromPackage !== null) return Promise.resolve(fromPackage);
  const home = mkdtempSync(join(tmpdir(), 'kingshand-qwen-version-'));
  return new Promise((resolve) => {
    const env = { ...process.env, QWEN_HOME: home, QWEN_CODE_NO_RELAUNCH: 'true' };
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', env }, (_err, stdout) => {
      rmSync(home, { recursive: true, force: true });
      resolve(parseQwenVersion(String(stdout ?? '')));
    });
  });
}
