/**
 * Finding Gemini CLI and its version. HAND_GEMINI_BIN (absolute, in the daemon's environment)
 * picks another build, as HAND_CLAUDE_BIN does for Claude Code (the second-version corpus);
 * then the pinned node_modules/.bin/gemini, so tests and a person run the same version; then PATH.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findAgentBinary } from '../find-binary.ts';

export const GEMINI_PACKAGE = '@google/gemini-cli';
export const GEMINI_PINNED = '0.61.0';
export const FIX_GEMINI = `npm install --save-exact ${GEMINI_PACKAGE}@${GEMINI_PINNED}`;

export function geminiBinary(env: Record<string, string | undefined> = process.env): string | null {
  return findAgentBinary('gemini', 'HAND_GEMINI_BIN', env);
}

/** `0.61.0` from `gemini --version`'s output (it prints the bare version), or null. */
export function parseGeminiVersion(text: string): string | null {
  const m = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(text.trim());
  return m ? m[1]! : null;
}

/** A package.json's text (the @google/gemini-cli one) or `gemini --version`'s output → the version, or null. */
export function parseGeminiPackageOrVersion(text: string): string | null {
  try {
    const json = JSON.parse(text) as { name?: unknown; version?: unknown };
    return json.name === GEMINI_PACKAGE && typeof json.version === 'string' ? parseGeminiVersion(json.version) : null;
  } catch {
    return parseGeminiVersion(text);
  }
}

/**
 * On another host, the same two ways as here, in one constant script ($1: a home of kingshand's
 * own for the fallback): the package.json beside the real program (an npm install links
 * `gemini` to `<pkg>/bundle/gemini.js`), else `gemini --version`, which costs a Node start of
 * its bundle (~2 s) and writes projects.json into the home it is given.
 */
export const FAR_GEMINI_VERSION = 'p=$(command -v gemini) && p=$(readlink -f -- "$p") && cat -- "${p%/*}/../package.json" 2>/dev/null && exit 0; GEMINI_CLI_HOME=$1 GEMINI_CLI_NO_RELAUNCH=true exec gemini --version';

/**
 * The version of the package `bin` belongs to (`<pkg>/bundle/gemini.js` → `<pkg>/package.json`),
 * or null when it is not laid out so. Read from the file because `gemini --version` writes into
 * the person's ~/.gemini (0.61.0 records the project in projects.json even for --version).
 */
export function geminiPackageVersion(bin: string): string | null {
  try {
    const pkg = join(dirname(realpathSync(bin)), '..', 'package.json');
    const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown; version?: unknown };
    return json.name === GEMINI_PACKAGE && typeof json.version === 'string' ? parseGeminiVersion(json.version) : null;
  } catch {
    return null;
  }
}

/** The version of `bin`: its package.json, else `gemini --version` with a throwaway home; could-not-tell is null. */
export function geminiVersionOf(bin: string, timeoutMs = 15_000): Promise<string | null> {
  const fromPackage = geminiPackageVersion(bin);
  if (fromPackage !== null) return Promise.resolve(fromPackage);
  const home = mkdtempSync(join(tmpdir(), 'kingshand-gemini-version-'));
  return new Promise((resolve) => {
    // Its relaunch (a child with a larger heap) is not needed to print a version.
    const env = { ...process.env, GEMINI_CLI_HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true' };
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', env }, (_err, stdout) => {
      rmSync(home, { recursive: true, force: true });
      resolve(parseGeminiVersion(String(stdout ?? '')));
    });
  });
}
