/**
 * Which Claude Code binary a dispatch starts and its version: Claude Code's own, so its profile
 * (io/agent/profiles/claude.ts) reads them without going back through the profile registry.
 */
import { execFile } from 'node:child_process';
import { parseClaudeVersion } from '../../screen/profiles/claude-versions.ts';
import { findAgentBinary } from '../find-binary.ts';

/**
 * The Claude Code binary a dispatch would start, or null when there is none (chosen, pinned, then
 * PATH), as `env` (the daemon's environment) says.
 */
export function claudeBinary(env: Record<string, string | undefined> = process.env): string | null {
  // HAND_CLAUDE_BIN: another Claude Code build (an older version from ~/.cache/kingshand/claude/<version>).
  return findAgentBinary('claude', 'HAND_CLAUDE_BIN', env);
}

/** `claude --version` of `bin`; some versions print and linger, so output before the timeout counts. */
export function claudeVersionOf(bin: string, timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' }, (_err, stdout) => {
      resolve(parseClaudeVersion(String(stdout ?? '')));
    });
  });
}
