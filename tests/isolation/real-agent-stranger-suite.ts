/**
 * The stranger suite of an agent run for real in a hand installation of its own (Gemini CLI,
 * OpenCode, Qwen Code: tests/agents/<agent>/<agent>-world.ts), written once: posture off, nobody
 * at the keyboard, its model scripted by a fake API so that its shell tool runs the probe
 * (probe-script.ts) and its file tool asks for the review token. Every way out is refused and
 * nothing secret reaches the model (expectAStranger). Each agent's file gives its fake, its world,
 * the calls in its tools' names and its own settings file the probe tries to rewrite.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type ScriptItem } from '../../io/fake-model/anthropic.ts';
import type { HandAgentWorld } from '../agents/hand-agent-world.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

interface ScriptedFake<Item> {
  received: { body?: string }[];
  queue(items: Item[]): void;
  close(): Promise<void>;
}

export interface RealAgentStranger<Item, Fake extends ScriptedFake<Item>> {
  /** The rule as the suite names it (`a Qwen Code worker is a stranger`). */
  title: string;
  startFake(): Promise<Fake>;
  /** Its world under posture off (the probe is committed to its repository by the suite). */
  makeWorld(fake: Fake): Promise<HandAgentWorld<any>>;
  /** The model's replies: its shell tool runs `sh probe.sh`, its file tool reads `token`, then it is done. */
  calls(token: string): Item[];
  /** The agent's own settings file(s) the repository commits, which the probe tries to rewrite. */
  ownSettings?: Record<string, string>;
  /** How long `hand wait --until settled` waits (`90s`), and the test's own bound. */
  settleWithin: string;
  testTimeoutMs: number;
}

export function realAgentStrangerSuite<Item, Fake extends ScriptedFake<Item>>(s: RealAgentStranger<Item, Fake>): void {
  let fake: Fake;
  let w: HandAgentWorld<any>;
  let planted: Planted;
  beforeAll(async () => {
    fake = await s.startFake();
    w = await s.makeWorld(fake);
    planted = plantSecrets(w.agentHome, w.home);
  });
  afterAll(async () => {
    planted?.cleanup();
    await w?.cleanup();
    await fake?.close();
  });

  describe(s.title, () => {
    it('its shell and file tools reach nothing of the person or of kingshand; nothing secret reaches the model', async () => {
      const id = 'stranger';
      await writeProbe({ state: w.home, home: w.agentHome, repo: w.repo, id, hand: w.hand, planted }, s.ownSettings);
      const mainBefore = mainOf(w.repo);
      fake.queue(s.calls(join(w.home, 'review.token')));
      await w.dispatch(id, 'Run the probe.', ['--env', 'HAND_WITNESS_HOOKS=off']);
      expect((await w.hand(['approve', id, '--json'])).code, 'the brief approved').toBe(0);
      const settled = await w.wait(id, 'settled', s.settleWithin);
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);
      await expectAStranger({ worktree: w.worktreeOf(id), repo: w.repo, mainBefore, hand: w.hand, planted, state: w.home, bodies: fake.received.map((r) => r.body ?? '') });
    }, s.testTimeoutMs);
  });
}

/**
 * What the suite is for an agent on the fake Anthropic API (OpenCode, Qwen Code): the probe's
 * calls in Claude Code's tool names, which the fake says in the agent's own
 * (io/fake-model/anthropic/tool-dialect.ts), and a settle bound of 120 s (a Node or 185 MB binary
 * start, then two tool calls).
 */
export const ON_THE_FAKE_ANTHROPIC_API = {
  startFake: () => startFakeAnthropic({ suggestion: null }),
  calls: (token: string): ScriptItem[] => [
    { kind: 'tool_use', name: 'Bash', text: 'I will run the probe.', input: { command: 'sh probe.sh', description: 'Run the probe' } },
    { kind: 'tool_use', name: 'Read', input: { file_path: token } },
    { kind: 'text', text: 'Done.' },
  ],
  settleWithin: '120s',
  testTimeoutMs: 240_000,
} satisfies Omit<RealAgentStranger<ScriptItem, FakeAnthropic>, 'title' | 'makeWorld'>;
