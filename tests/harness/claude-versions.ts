/**
 * Claude Code builds other than the pinned one, kept in ~/.cache/kingshand/claude/<version>
 * (outside the repository) and installed there with npm on first use. Shared by the corpus
 * capture (tests/corpus/capture.ts) and the cross-version e2e tests.
 */
import { CLAUDE_BIN, PINNED_CLAUDE_VERSION } from './claude-binary.ts';
import { agentCacheDir, cachedAgentBinary } from './cached-agent-version.ts';

export function claudeCacheDir(version: string): string {
  return agentCacheDir('claude', version);
}

/**
 * The claude executable for `version`, installing it into the cache when missing (npm, so it
 * needs the registry). Throws with the reason when it cannot be had or is another version.
 */
export function claudeBinaryFor(version: string, opts: { log?: (line: string) => void; timeoutMs?: number } = {}): string {
  if (version === PINNED_CLAUDE_VERSION) return CLAUDE_BIN;
  return cachedAgentBinary({ agent: 'claude', pkg: '@anthropic-ai/claude-code', bin: 'claude', installTimeoutMs: 300_000 }, version, opts);
}
