/**
 * One product installation for the real-OpenCode end-to-end tests: a private `hand` state dir (its
 * own daemon, database and tmux server), a temp git repository already annexed, and a throwaway
 * agent HOME set up as a person's who configured OpenCode: a provider in ~/.config/opencode
 * pointed at the fake Anthropic API (the calibration kit's fakeProviderSetup). Nothing else: the
 * worker's config, permission rules and witness come from dispatch's launch environment, so
 * these tests exercise that. `hand dispatch` sends its environment to the daemon, so it is
 * exactly what the real OpenCode worker gets; HAND_OPENCODE_BIN picks the pinned binary.
 */
import type { FakeAnthropic } from '../../../io/fake-model/anthropic.ts';
import { fakeProviderSetup } from '../../../io/agent/opencode/calibration-kit.ts';
import { opencodeBinaryFor } from '../../harness/real-opencode.ts';
import { makeAnthropicAgentWorld, type AnthropicAgentWorld } from '../anthropic-agent-world.ts';

export type OpencodeWorld = AnthropicAgentWorld;

export function makeOpencodeWorld(label: string, fake: FakeAnthropic, permissions: 'off' | 'edits' | 'ask'): Promise<OpencodeWorld> {
  return makeAnthropicAgentWorld({ agent: 'opencode', setup: (home, url) => fakeProviderSetup(home, url), bin: opencodeBinaryFor(), binVar: 'HAND_OPENCODE_BIN' }, label, fake, permissions);
}
