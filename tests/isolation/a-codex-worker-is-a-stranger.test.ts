/**
 * Rule: a worker is a stranger (issue 37) — the real Codex CLI 0.169.0, posture off, nobody at the
 * keyboard, its model scripted by the fake Responses API. Under off Codex runs with no sandbox of
 * its own (`--dangerously-bypass-approvals-and-sandbox`): the hostile run's Codex worker read
 * ~/.ssh and ran `hand approve` on another project, which landed. In kingshand's sandbox the probe
 * (tests/isolation/probe-script.ts) finds every way out refused, and nothing secret reaches the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCodexApi, type FakeCodexApi } from '../../io/fake-model/codex.ts';
import { makeCodexWorld, type CodexWorld } from '../agents/codex/codex-world.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

let fake: FakeCodexApi;
let w: CodexWorld;
let planted: Planted;
beforeAll(async () => {
  fake = await startFakeCodexApi();
  w = await makeCodexWorld('stranger-codex', fake);
});
afterAll(async () => {
  planted?.cleanup();
  await w?.cleanup();
  await fake?.close();
});

describe('a Codex CLI worker is a stranger', () => {
  it('every way out of its sandbox is refused; nothing secret reaches the model; it still commits and reports', async () => {
    const id = 'stranger';
    const repo = await w.annex('repo', 'off');
    // After the first call made the state directory (a planted file in an empty one is refused as not kingshand's).
    planted = plantSecrets(w.codex.home, w.home);
    await writeProbe({ state: w.home, home: w.codex.home, repo, id, hand: w.hand, planted });
    const mainBefore = mainOf(repo);
    fake.queue([
      { kind: 'shell', cmd: 'sh probe.sh', text: 'I will run the probe.' },
      { kind: 'text', text: 'Done.' },
    ]);
    await w.dispatch(id, repo, 'Run the probe.');
    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectAStranger({ worktree: w.worktreeOf(repo, id), repo, mainBefore, hand: w.hand, planted, state: w.home, bodies: fake.received.map((r) => r.body ?? '') });
  }, 180_000);
});
