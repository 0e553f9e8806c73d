/**
 * One product installation for the real-OpenCode end-to-end tests: a private `hand` state dir (its
 * own daemon, database and tmux server), a temp git repository already annexed, and a throwaway
 * agent HOME set up as a person's who configured OpenCode: a provider in ~/.config/opencode
 * pointed at the fake Anthropic API (the calibration kit's fakeProviderSetup). Nothing else: the
 * worker's config, permission rules and witness come from dispatch's launch environment, so
 * these tests exercise that. `hand dispatch` sends its environment to the daemon, so it is
 * exactly what the real OpenCode worker gets; HAND_OPENCODE_BIN picks the pinned binary.
 */
import type { FakeAnthropic, RequestRecord } from '../../../io/fake-model/anthropic.ts';
import { fakeProviderSetup } from '../../../io/agent/opencode/calibration-kit.ts';
import { opencodeBinaryFor, opencodeTestEnv } from '../../harness/real-opencode.ts';
import { makeHandAgentWorld, type HandAgentWorld } from '../hand-agent-world.ts';

export type OpencodeWorld = HandAgentWorld<RequestRecord>;

export function makeOpencodeWorld(label: string, fake: FakeAnthropic, permissions: 'off' | 'edits' | 'ask'): Promise<OpencodeWorld> {
  const bin = opencodeBinaryFor();
  return makeHandAgentWorld({
    label, agent: 'opencode', permissions, fake, fakeName: 'the fake Anthropic API', requestTimeoutMs: 60_000,
    env: (agentHome) => ({ ...opencodeTestEnv(agentHome), ...fakeProviderSetup(agentHome, fake.url), HAND_OPENCODE_BIN: bin }),
  });
}
