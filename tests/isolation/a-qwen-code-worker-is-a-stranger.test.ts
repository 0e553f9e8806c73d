/**
 * Rule: a worker is a stranger (issue 37) — the real Qwen Code 0.15.10, posture off (yolo), nobody
 * at the keyboard, its model scripted by the fake Anthropic API. Its own sandbox needs a container
 * runtime and is not used: its shell tool runs with the user's whole reach and its deny rules bind
 * only its file tools. Its run_shell_command runs the probe (tests/isolation/probe-script.ts) and
 * its read_file asks for the review token: every way out is refused, and nothing secret reaches
 * the model. The repository commits a .qwen/settings.json, so the probe also tries to rewrite the
 * agent's own workspace settings.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { makeQwenWorld, type QwenWorld } from '../agents/qwen/qwen-world.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

let fake: FakeAnthropic;
let w: QwenWorld;
let planted: Planted;
beforeAll(async () => {
  fake = await startFakeAnthropic({ suggestion: null });
  w = await makeQwenWorld('stranger-qwen', fake, 'off');
  planted = plantSecrets(w.agentHome, w.home);
});
afterAll(async () => {
  planted?.cleanup();
  await w?.cleanup();
  await fake?.close();
});

describe('a Qwen Code worker is a stranger', () => {
  it('its shell and file tools reach nothing of the person or of kingshand; nothing secret reaches the model', async () => {
    const id = 'stranger';
    await writeProbe({ state: w.home, home: w.agentHome, repo: w.repo, id, hand: w.hand, planted }, { '.qwen/settings.json': '{}\n' });
    const mainBefore = mainOf(w.repo);
    fake.queue([
      { kind: 'tool_use', name: 'Bash', text: 'I will run the probe.', input: { command: 'sh probe.sh', description: 'Run the probe' } },
      { kind: 'tool_use', name: 'Read', input: { file_path: join(w.home, 'review.token') } },
      { kind: 'text', text: 'Done.' },
    ]);
    await w.dispatch(id, 'Run the probe.', ['--env', 'HAND_WITNESS_HOOKS=off']);
    expect((await w.hand(['approve', id, '--json'])).code, 'the brief approved').toBe(0);
    const settled = await w.wait(id, 'settled', '120s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectAStranger({ worktree: w.worktreeOf(id), repo: w.repo, mainBefore, hand: w.hand, planted, state: w.home, bodies: fake.received.map((r) => r.body ?? '') });
  }, 240_000);
});
