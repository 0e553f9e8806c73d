/**
 * Blocked detection for a real agent CLI on tmux (issue 45): OpenCode 1.18.33 against the fake
 * Anthropic API, in the in-process fleet host wired as the daemon wires it. A real binary logs no
 * "menu drawn" moment, so the clock starts when the fake has chosen its `question` call (the reply
 * then goes out whole); the figure is OpenCode's own drawing plus the supervisor's detection,
 * answer → settled likewise from the Enter.
 */
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeHost } from './lib/hosts.ts';
import { askAnswerTrials, makeFleetWorld, until } from './lib/fleet-world.ts';
import { summarise } from './lib/stats.ts';
import { onCleanup } from './lib/cleanup.ts';
import { startFakeAnthropic } from '../io/fake-model/anthropic.ts';
import { fakeProviderSetup } from '../io/agent/opencode/calibration-kit.ts';
import { OPENCODE_PINNED } from '../io/agent/opencode/binary.ts';
import { opencodeBinaryFor, opencodeTestEnv } from '../tests/harness/real-opencode.ts';

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const fake = await startFakeAnthropic({ suggestion: null });
  onCleanup('fake Anthropic API', () => fake.close());
  const world = makeWorld('det-opencode');
  const host = await makeHost('tmux', world.root);
  // The daemon finds OpenCode as a person's would be found when not in node_modules: HAND_OPENCODE_BIN.
  const { fleet, dispatch } = await makeFleetWorld(world, 'tmux', host, { HAND_OPENCODE_BIN: opencodeBinaryFor() });
  const id = 'det-opencode';
  const setup = fakeProviderSetup(world.agentHome, fake.url);
  const env = { ...world.workerEnv(), ...opencodeTestEnv(world.agentHome), ...setup, HAND_WITNESS_HOOKS: 'off' };
  await dispatch(id, env, 'opencode');
  await until(fleet, id, 'settled');
  const { blocked, settled } = await askAnswerTrials(fleet, id, opts.trials, fake, (r) => r.reply?.kind === 'tool_use' && r.reply.name === 'question');
  opts.log?.(`opencode on tmux: ${opts.trials} ask/answer trials done`);
  return [
    summarise(`blocked detection, OpenCode ${OPENCODE_PINNED} on tmux: question reply served → actor blocked`, 'ms', blocked, null, "includes OpenCode's own drawing of the question (no draw timestamp from a real binary)"),
    summarise(`settled detection, OpenCode ${OPENCODE_PINNED} on tmux: Enter on the answer → actor settled`, 'ms', settled, null, 'includes the answer round trip to the fake API and the settle quiet period'),
  ];
}
