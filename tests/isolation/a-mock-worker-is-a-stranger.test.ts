/**
 * Rule: a worker is a stranger (issue 37) — the mock agent. The mock runs the probe as any
 * agent's shell tool would (KH_MOCK_RUN_BASH=1): from inside kingshand's sandbox, under posture
 * off, nobody at the keyboard. Every way out in tests/isolation/probe-script.ts is refused; a
 * worker can still commit on its own branch, read its brief, write its report and speak through
 * its hooks' socket.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { expectAStranger, mainOf, plantSecrets, writeProbe, type Planted } from './stranger-world.ts';

let w: CliWorld;
let planted: Planted;
beforeAll(async () => {
  w = await makeCliWorld('stranger-mock');
  expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
  planted = plantSecrets(w.agentHome, w.home);
});
afterAll(async () => {
  planted?.cleanup();
  await w?.cleanup();
});

describe('a mock worker is a stranger', () => {
  it('every way out of its sandbox is refused; it still commits, reads its brief, writes its report and speaks through its hooks', async () => {
    const id = 'stranger';
    await writeProbe({ state: w.home, home: w.agentHome, repo: w.repo, id, hand: w.hand, planted });
    const mainBefore = mainOf(w.repo);
    const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'MODE:bash[[sh probe.sh]]'), '--agent', 'mock', '--json'], { env: { KH_MOCK_RUN_BASH: '1', KH_MOCK_PERMISSION_MODE: 'auto' } });
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const settled = await w.hand(['wait', id, '--until', 'settled', '--timeout', '60s', '--json'], { timeoutMs: 90_000 });
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectAStranger({ worktree: join(w.repo, '.claude', 'worktrees', id), repo: w.repo, mainBefore, hand: w.hand, planted, state: w.home, bodies: [] });
  }, 120_000);
});
