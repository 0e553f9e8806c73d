/**
 * Codex CLI builds other than the pinned one, kept in ~/.cache/kingshand/codex/<version> (outside
 * the repository) and installed there with npm on first use, for the second-version corpus.
 */
import { agentCacheDir, cachedAgentBinary } from './cached-agent-version.ts';
import { codexBinary } from '../../io/agent/codex/launch.ts';

export const PINNED_CODEX_VERSION = '0.169.0';

export function codexCacheDir(version: string): string {
  return agentCacheDir('codex', version);
}

export function codexBinaryFor(version: string, opts: { log?: (line: string) => void; timeoutMs?: number } = {}): string {
  if (version === PINNED_CODEX_VERSION) {
    const pinned = codexBinary({ PATH: '' });
    if (pinned === null) throw new Error('node_modules/.bin/codex is missing: run npm ci');
    return pinned;
  }
  return cachedAgentBinary({ agent: 'codex', pkg: '@openai/codex', bin: 'codex', installTimeoutMs: 600_000 }, version, opts);
}
