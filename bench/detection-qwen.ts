/**
 * Blocked detection for a real agent CLI on tmux (issue 45): Qwen Code 0.15.10 against the fake
 * Anthropic API (its Anthropic auth), in the in-process fleet host wired as the daemon wires it. A
 * real binary logs no "menu drawn" moment, so the clock starts when the fake has chosen its
 * `ask_user_question` call (the reply then goes out whole); the figure is Qwen Code's own drawing
 * plus the supervisor's detection, answer → settled likewise from the Enter.
 */
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeHost } from './lib/hosts.ts';
import { askAnswerTrials, makeFleetWorld, until } from './lib/fleet-world.ts';
import { summarise } from './lib/stats.ts';
import { onCleanup } from './lib/cleanup.ts';
import { startFakeAnthropic } from '../io/fake-model/anthropic.ts';
import { fakeQwenSetup } from '../io/agent/qwen/calibration-kit.ts';
import { QWEN_PINNED } from '../io/agent/qwen/binary.ts';
import { qwenBinaryFor, qwenTestEnv } from '../tests/harness/real-qwen.ts';

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const fake = await startFakeAnthropic({ suggestion: null });
  onCleanup('fake Anthropic API', () => fake.close());
  const world = makeWorld('det-qwen');
  const host = await makeHost('tmux', world.root);
  // The daemon finds Qwen Code as it would (HAND_QWEN_BIN wins over node_modules, the pinned one either way).
  const { fleet, dispatch } = await makeFleetWorld(world, 'tmux', host, { HAND_QWEN_BIN: qwenBinaryFor() });
  const id = 'det-qwen';
  const setup = fakeQwenSetup(world.agentHome, fake.url);
  const env = { ...world.workerEnv(), ...qwenTestEnv(world.agentHome), ...setup, HAND_WITNESS_HOOKS: 'off' };
  await dispatch(id, env, 'qwen');
  await until(fleet, id, 'settled');
  const { blocked, settled } = await askAnswerTrials(fleet, id, opts.trials, fake, (r) => r.reply?.kind === 'tool_use' && r.reply.name === 'ask_user_question');
  opts.log?.(`qwen on tmux: ${opts.trials} ask/answer trials done`);
  return [
    summarise(`blocked detection, Qwen Code ${QWEN_PINNED} on tmux: question reply served → actor blocked`, 'ms', blocked, null, "includes Qwen Code's own drawing of the question (no draw timestamp from a real binary)"),
    summarise(`settled detection, Qwen Code ${QWEN_PINNED} on tmux: Enter on the answer → actor settled`, 'ms', settled, null, 'includes the answer round trip to the fake API and the settle quiet period'),
  ];
}
