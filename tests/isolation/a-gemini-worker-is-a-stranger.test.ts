/**
 * Rule: a worker is a stranger (issue 37) — the real Gemini CLI 0.61.0, posture off (yolo),
 * nobody at the keyboard, its model scripted by the fake Gemini API. Gemini CLI's own sandbox
 * needs a container runtime, so before kingshand's its shell commands had the person's whole
 * reach. Its shell tool runs the probe (tests/isolation/probe-script.ts) and its read_file tool
 * asks for the review token: every way out is refused, and nothing secret reaches the model.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini } from '../../io/fake-model/gemini.ts';
import { makeGeminiWorld, type GeminiWorld } from '../agents/gemini/gemini-world.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

let fake: FakeGemini;
let w: GeminiWorld;
let planted: Planted;
beforeAll(async () => {
  fake = await startFakeGemini();
  w = await makeGeminiWorld('stranger-gemini', fake, 'off');
  planted = plantSecrets(w.agentHome, w.home);
});
afterAll(async () => {
  planted?.cleanup();
  await w?.cleanup();
  await fake?.close();
});

describe('a Gemini CLI worker is a stranger', () => {
  it('its shell and file tools reach nothing of the person or of kingshand; nothing secret reaches the model', async () => {
    const id = 'stranger';
    await writeProbe({ state: w.home, home: w.agentHome, repo: w.repo, id, hand: w.hand, planted });
    const mainBefore = mainOf(w.repo);
    fake.queue([
      { kind: 'call', name: 'run_shell_command', text: 'I will run the probe.', args: { command: 'sh probe.sh', description: 'Run the probe' } },
      { kind: 'call', name: 'read_file', args: { file_path: join(w.home, 'review.token') } },
      { kind: 'text', text: 'Done.' },
    ]);
    await w.dispatch(id, 'Run the probe.', ['--env', 'HAND_WITNESS_HOOKS=off']);
    expect((await w.hand(['approve', id, '--json'])).code, 'the brief approved').toBe(0);
    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectAStranger({ worktree: w.worktreeOf(id), repo: w.repo, mainBefore, hand: w.hand, planted, state: w.home, bodies: fake.received.map((r) => r.body) });
  }, 180_000);
});
