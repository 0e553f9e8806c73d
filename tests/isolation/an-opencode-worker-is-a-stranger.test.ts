/**
 * Rule: a worker is a stranger (issue 37) — the real OpenCode 1.18.33, posture off, nobody at the
 * keyboard, its model scripted by the fake Anthropic API. OpenCode has no sandbox of its own: its
 * shell tool runs with the user's whole reach and its permission rules bind only its file tools.
 * Its bash tool runs the probe (tests/isolation/probe-script.ts) and its read tool asks for the
 * review token: every way out is refused, and nothing secret reaches the model. The repository
 * commits an opencode.json, so the probe also tries to rewrite the agent's own project config.
 */
import { makeOpencodeWorld } from '../agents/opencode/opencode-world.ts';
import { ON_THE_FAKE_ANTHROPIC_API, realAgentStrangerSuite } from './real-agent-stranger-suite.ts';

realAgentStrangerSuite({
  title: 'an OpenCode worker is a stranger',
  ...ON_THE_FAKE_ANTHROPIC_API,
  makeWorld: (fake) => makeOpencodeWorld('stranger-opencode', fake, 'off'),
  ownSettings: { 'opencode.json': '{ "$schema": "https://opencode.ai/config.json" }\n' },
});
