/**
 * Rule: a worker is a stranger (issue 37) — the real Codex CLI 0.169.0, posture off, nobody at the
 * keyboard, its model scripted by the fake Responses API. Under off Codex runs with no sandbox of
 * its own (`--dangerously-bypass-approvals-and-sandbox`): the hostile run's Codex worker read
 * ~/.ssh and ran `hand approve` on another project, which landed. In kingshand's sandbox the probe
 * (tests/isolation/probe-script.ts) finds every way out refused, and nothing secret reaches the model.
 */
import { describe, expect, it } from 'vitest';
import { useCodexWorld } from '../agents/codex/codex-world.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

let planted: Planted;
const cx = useCodexWorld('stranger-codex', { alsoCleanup: () => planted?.cleanup() });

describe('a Codex CLI worker is a stranger', () => {
  it('every way out of its sandbox is refused; nothing secret reaches the model; it still commits and reports', async () => {
    const id = 'stranger';
    const repo = await cx.w.annex('repo', 'off');
    // After the first call made the state directory (a planted file in an empty one is refused as not kingshand's).
    planted = plantSecrets(cx.w.codex.home, cx.w.home);
    await writeProbe({ state: cx.w.home, home: cx.w.codex.home, repo, id, hand: cx.w.hand, planted });
    const mainBefore = mainOf(repo);
    cx.fake.queue([
      { kind: 'shell', cmd: 'sh probe.sh', text: 'I will run the probe.' },
      { kind: 'text', text: 'Done.' },
    ]);
    await cx.w.dispatch(id, repo, 'Run the probe.');
    const settled = await cx.w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectAStranger({ worktree: cx.w.worktreeOf(repo, id), repo, mainBefore, hand: cx.w.hand, planted, state: cx.w.home, bodies: cx.fake.received.map((r) => r.body ?? '') });
  }, 180_000);
});
