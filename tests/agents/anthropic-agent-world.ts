/**
 * A hand installation for an agent that talks to the fake Anthropic API (OpenCode, Qwen Code): the
 * world of hand-agent-world.ts with a throwaway agent HOME set up as a person's who pointed the
 * agent at the fake (its calibration kit's setup), and its pinned binary chosen by its
 * HAND_<AGENT>_BIN. Everything of the worker's own comes from dispatch.
 */
import type { FakeAnthropic, RequestRecord } from '../../io/fake-model/anthropic.ts';
import { realAgentEnv } from '../harness/real-run-places.ts';
import { makeHandAgentWorld, type HandAgentWorld } from './hand-agent-world.ts';

export type AnthropicAgentWorld = HandAgentWorld<RequestRecord>;

export interface AnthropicAgent {
  agent: string;
  /** The person's setup in `home` pointed at the fake at `url`; the variables it needs. */
  setup(home: string, url: string): Record<string, string>;
  /** Its pinned binary, and the daemon's variable that chooses it. */
  bin: string;
  binVar: string;
}

export function makeAnthropicAgentWorld(a: AnthropicAgent, label: string, fake: FakeAnthropic, permissions: 'off' | 'edits' | 'ask'): Promise<AnthropicAgentWorld> {
  return makeHandAgentWorld({
    label, agent: a.agent, permissions, fake, fakeName: 'the fake Anthropic API', requestTimeoutMs: 60_000,
    env: (agentHome) => ({ ...realAgentEnv(agentHome), ...a.setup(agentHome, fake.url), [a.binVar]: a.bin }),
  });
}
