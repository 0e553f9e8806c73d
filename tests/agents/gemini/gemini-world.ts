/**
 * One product installation for the real-Gemini end-to-end tests: a private `hand` state dir (its
 * own daemon, database and tmux server), a temp git repository already annexed, and a throwaway
 * agent HOME with nothing in it: trust and settings are left to the product's dispatch, so these
 * tests exercise that seed. `hand dispatch` sends its environment (geminiTestEnv) to the daemon,
 * so it is exactly what the real Gemini CLI worker gets.
 */
import type { FakeGemini, GeminiRequestRecord } from '../../../io/fake-model/gemini.ts';
import { geminiTestEnv } from '../../harness/real-gemini.ts';
import { makeHandAgentWorld, type HandAgentWorld } from '../hand-agent-world.ts';

export type GeminiWorld = HandAgentWorld<GeminiRequestRecord>;

export const watermark = (fake: FakeGemini): number => fake.received.at(-1)?.seq ?? 0;

/** `daemonProcess`: the daemon is the real `hand daemon run` process (a test that SIGKILLs it). */
export function makeGeminiWorld(label: string, fake: FakeGemini, permissions: 'off' | 'edits' | 'ask', opts: { daemonProcess?: boolean } = {}): Promise<GeminiWorld> {
  return makeHandAgentWorld({
    label, agent: 'gemini', permissions, fake, fakeName: 'the fake Gemini API', requestTimeoutMs: 45_000,
    // Gemini CLI relaunches itself with a bigger heap by default: a second Node start per worker, not needed here.
    env: (agentHome) => ({ ...geminiTestEnv(agentHome, fake.url, true), GEMINI_CLI_NO_RELAUNCH: 'true' }),
    ...(opts.daemonProcess ? { daemonProcess: true } : {}),
  });
}
