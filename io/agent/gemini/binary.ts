/**
 * Finding Gemini CLI and its version. HAND_GEMINI_BIN (absolute, in the daemon's environment)
 * picks another build, as HAND_CLAUDE_BIN does for Claude Code (the second-version corpus);
 * then the pinned node_modules/.bin/gemini, so tests and a person run the same version; then PATH.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';

export const GEMINI_PACKAGE = '@google/gemini-cli';
export const GEMINI_PINNED = '0.61.0';
export const FIX_GEMINI = `npm install --save-exact ${GEMINI_PACKAGE}@${GEMINI_PINNED}`;

export function geminiBinary(env: Record<string, string | undefined> = process.env): string | null {
  const chosen = env.HAND_GEMINI_BIN;
  if (chosen && isAbsolute(chosen) && existsSync(chosen)) return chosen;
  const local = join(KINGSHAND_ROOT, 'node_modules', '.bin', 'gemini');
  if (existsSync(local)) return local;
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'gemini'))) return join(dir, 'gemini');
  }
  return null;
}

/** `0.61.0` from `gemini --version`'s output (it prints the bare version), or null. */
export function parseGeminiVersion(text: string): string | null {
  const m = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(text.trim());
  return m ? m[1]! : null;
}

/** `gemini --version` of `bin`; could-not-tell is null, never a guess. */
export function geminiVersionOf(bin: string, timeoutMs = 15_000): Promise<string | null> {
  return new Promise((resolve) => {
    // Its relaunch (a child with a larger heap) is not needed to print a version.
    const env = { ...process.env, GEMINI_CLI_NO_RELAUNCH: 'true' };
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', env }, (_err, stdout) => resolve(parseGeminiVersion(String(stdout ?? ''))));
  });
}
