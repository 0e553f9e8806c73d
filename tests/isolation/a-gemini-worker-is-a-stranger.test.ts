/**
 * Rule: a worker is a stranger (issue 37) — the real Gemini CLI 0.61.0, posture off (yolo),
 * nobody at the keyboard, its model scripted by the fake Gemini API. Gemini CLI's own sandbox
 * needs a container runtime, so before kingshand's its shell commands had the person's whole
 * reach. Its shell tool runs the probe (tests/isolation/probe-script.ts) and its read_file tool
 * asks for the review token: every way out is refused, and nothing secret reaches the model.
 */
import { startFakeGemini } from '../../io/fake-model/gemini.ts';
import { makeGeminiWorld } from '../agents/gemini/gemini-world.ts';
import { realAgentStrangerSuite } from './real-agent-stranger-suite.ts';

realAgentStrangerSuite({
  title: 'a Gemini CLI worker is a stranger',
  startFake: () => startFakeGemini(),
  makeWorld: (fake) => makeGeminiWorld('stranger-gemini', fake, 'off'),
  calls: (token) => [
    { kind: 'call', name: 'run_shell_command', text: 'I will run the probe.', args: { command: 'sh probe.sh', description: 'Run the probe' } },
    { kind: 'call', name: 'read_file', args: { file_path: token } },
    { kind: 'text', text: 'Done.' },
  ],
  settleWithin: '90s',
  testTimeoutMs: 180_000,
});
