/**
 * Blocked detection for a real agent CLI that speaks the fake Anthropic API (OpenCode, Qwen Code),
 * on tmux, in the in-process fleet host wired as the daemon wires it. A real binary logs no "menu
 * drawn" moment, so the clock starts when the fake has chosen the agent's question call (the
 * reply then goes out whole); the figure is the agent's own drawing plus the supervisor's
 * detection, answer → settled likewise from the Enter.
 */
import type { BenchResult } from '../types.ts';
import { makeWorld } from './world.ts';
import { makeHost } from './hosts.ts';
import { askAnswerTrials, makeFleetWorld, until } from './fleet-world.ts';
import { summarise } from './stats.ts';
import { onCleanup } from './cleanup.ts';
import { startFakeAnthropic } from '../../io/fake-model/anthropic.ts';

export interface AnthropicAgentBench {
  /** The profile name (`--agent`). */
  agent: string;
  /** How the figures name it: "OpenCode 1.18.33". */
  label: string;
  /** The daemon's variable that finds its binary, and the binary. */
  binEnv: Record<string, string>;
  /** The person's setup pointed at the fake (its calibration kit's), and its test environment. */
  setup(agentHome: string, fakeUrl: string): Record<string, string>;
  testEnv(agentHome: string): Record<string, string>;
  /** The name of its tool that asks the person a question. */
  questionTool: string;
}

export async function runAnthropicAgentDetection(a: AnthropicAgentBench, opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const fake = await startFakeAnthropic({ suggestion: null });
  onCleanup('fake Anthropic API', () => fake.close());
  const id = `det-${a.agent}`;
  const world = makeWorld(id);
  const host = await makeHost('tmux', world.root);
  // The daemon finds the binary as it would (its HAND_<AGENT>_BIN wins over node_modules).
  const { fleet, dispatch } = await makeFleetWorld(world, 'tmux', host, a.binEnv);
  const env = { ...world.workerEnv(), ...a.testEnv(world.agentHome), ...a.setup(world.agentHome, fake.url), HAND_WITNESS_HOOKS: 'off' };
  await dispatch(id, env, a.agent);
  await until(fleet, id, 'settled');
  const { blocked, settled } = await askAnswerTrials(fleet, id, opts.trials, fake, (r) => r.reply?.kind === 'tool_use' && r.reply.name === a.questionTool);
  opts.log?.(`${a.agent} on tmux: ${opts.trials} ask/answer trials done`);
  return [
    summarise(`blocked detection, ${a.label} on tmux: question reply served → actor blocked`, 'ms', blocked, null, `includes ${a.label.replace(/ [\d.]+$/, '')}'s own drawing of the question (no draw timestamp from a real binary)`),
    summarise(`settled detection, ${a.label} on tmux: Enter on the answer → actor settled`, 'ms', settled, null, 'includes the answer round trip to the fake API and the settle quiet period'),
  ];
}
