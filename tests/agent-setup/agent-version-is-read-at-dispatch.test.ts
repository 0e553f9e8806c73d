/**
 * Dispatch records the agent's version (`claude --version` of the binary it would launch), so
 * the worker's screen is read with the nearest corpus profile. The mock agent has none.
 */
import { describe, expect, it } from 'vitest';
import { agentVersion, claudeVersionOf } from '../../io/agent/agent-version.ts';
import { CLAUDE_BIN, PINNED_CLAUDE_VERSION } from '../harness/claude-binary.ts';

describe('the agent version read at dispatch', () => {
  it('the pinned Claude Code binary says its version', async () => {
    expect(await claudeVersionOf(CLAUDE_BIN)).toBe(PINNED_CLAUDE_VERSION);
    expect(await agentVersion('claude')).toBe(PINNED_CLAUDE_VERSION);
  });

  it('the mock agent and a program that prints no version give null (could not tell), never a guess', async () => {
    expect(await agentVersion('mock')).toBeNull();
    expect(await claudeVersionOf('/bin/true')).toBeNull();
    expect(await claudeVersionOf('/nonexistent/claude')).toBeNull();
  });
});
