/**
 * Rule: a worker is a stranger (issue 37) — the real Qwen Code 0.15.10, posture off (yolo), nobody
 * at the keyboard, its model scripted by the fake Anthropic API. Its own sandbox needs a container
 * runtime and is not used: its shell tool runs with the user's whole reach and its deny rules bind
 * only its file tools. Its run_shell_command runs the probe (tests/isolation/probe-script.ts) and
 * its read_file asks for the review token: every way out is refused, and nothing secret reaches
 * the model. The repository commits a .qwen/settings.json, so the probe also tries to rewrite the
 * agent's own workspace settings.
 */
import { makeQwenWorld } from '../agents/qwen/qwen-world.ts';
import { ON_THE_FAKE_ANTHROPIC_API, realAgentStrangerSuite } from './real-agent-stranger-suite.ts';

realAgentStrangerSuite({
  title: 'a Qwen Code worker is a stranger',
  ...ON_THE_FAKE_ANTHROPIC_API,
  makeWorld: (fake) => makeQwenWorld('stranger-qwen', fake, 'off'),
  ownSettings: { '.qwen/settings.json': '{}\n' },
});
