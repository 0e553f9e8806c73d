/**
 * Blocked detection for a real agent CLI on tmux (issue 27): Gemini CLI 0.61.0 against the fake
 * Gemini API, in the in-process fleet host wired as the daemon wires it. A real binary logs no
 * "menu drawn" moment, so the clock starts when the fake has finished sending the ask_user call
 * (the last byte of the reply); the figure is the CLI's own drawing plus the supervisor's
 * detection, answer → settled likewise from the Enter.
 */
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeHost } from './lib/hosts.ts';
import { askAnswerTrials, makeFleetWorld, until } from './lib/fleet-world.ts';
import { summarise } from './lib/stats.ts';
import { onCleanup } from './lib/cleanup.ts';
import { startFakeGemini } from '../io/fake-model/gemini.ts';
import { geminiTestEnv } from '../tests/harness/real-gemini.ts';

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const fake = await startFakeGemini();
  onCleanup('fake Gemini API', () => fake.close());
  const world = makeWorld('det-gemini');
  const host = await makeHost('tmux', world.root);
  const { fleet, dispatch } = await makeFleetWorld(world, 'tmux', host);
  const id = 'det-gemini';
  const env = { ...world.workerEnv(), ...geminiTestEnv(world.agentHome, fake.url, true), GEMINI_CLI_NO_RELAUNCH: 'true', HAND_WITNESS_HOOKS: 'off' };
  await dispatch(id, env, 'gemini');
  await until(fleet, id, 'settled');
  const { blocked, settled } = await askAnswerTrials(fleet, id, opts.trials, fake, (r) => r.reply?.kind === 'call' && r.reply.name === 'ask_user');
  opts.log?.(`gemini on tmux: ${opts.trials} ask/answer trials done`);
  return [
    summarise('blocked detection, Gemini CLI 0.61.0 on tmux: ask_user reply served → actor blocked', 'ms', blocked, null, "includes the CLI's own drawing of the question (no draw timestamp from a real binary)"),
    summarise('settled detection, Gemini CLI 0.61.0 on tmux: Enter on the answer → actor settled', 'ms', settled, null, 'includes the answer round trip to the fake API and the settle quiet period'),
  ];
}
