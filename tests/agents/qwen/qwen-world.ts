/**
 * One product installation for the real-Qwen-Code end-to-end tests: a private `hand` state dir
 * (its own daemon, database and tmux server), a temp git repository already annexed, and a
 * throwaway agent HOME set up as a person's who chose Qwen Code's Anthropic auth, pointed at the
 * fake Anthropic API (the calibration kit's fakeQwenSetup). Nothing else: the worker's settings,
 * posture rules, trust and witness hooks come from dispatch's seed, so these tests exercise that.
 * HAND_QWEN_BIN picks the pinned binary (node_modules, else the test cache).
 */
import type { FakeAnthropic, RequestRecord } from '../../../io/fake-model/anthropic.ts';
import { fakeQwenSetup } from '../../../io/agent/qwen/calibration-kit.ts';
import { qwenBinaryFor, qwenTestEnv } from '../../harness/real-qwen.ts';
import { makeHandAgentWorld, type HandAgentWorld } from '../hand-agent-world.ts';

export type QwenWorld = HandAgentWorld<RequestRecord>;

export function makeQwenWorld(label: string, fake: FakeAnthropic, permissions: 'off' | 'edits' | 'ask'): Promise<QwenWorld> {
  const bin = qwenBinaryFor();
  return makeHandAgentWorld({
    label, agent: 'qwen', permissions, fake, fakeName: 'the fake Anthropic API', requestTimeoutMs: 60_000,
    env: (agentHome) => ({ ...qwenTestEnv(agentHome), ...fakeQwenSetup(agentHome, fake.url), HAND_QWEN_BIN: bin }),
  });
}
