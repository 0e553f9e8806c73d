/**
 * Rule: a worktree deleted outside kingshand is said — `hand status` flags it, and `hand land`
 * refuses with "worktree missing" instead of judging the branch alone and calling it "no changes".
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dispatchYoloMock, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('a worktree deleted by hand is noticed', () => {
  it('status flags it and land refuses with worktree-missing, naming the path and the branch', async () => {
    const world = await makeWorld('worktree-gone');
    const { worktree } = await dispatchYoloMock(world, 'w1', 'MODE:report');
    expect((await world.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    const before = await world.hand(['status', 'w1', '--json']);
    expect(before.json[0].worktreeMissing).toBe(false);

    rmSync(worktree, { recursive: true, force: true });

    const s = await world.hand(['status', 'w1', '--json']);
    expect(s.json[0].worktreeMissing).toBe(true);
    expect((await world.hand(['status'])).stdout).toMatch(/w1: its worktree is missing/);
    const land = await world.hand(['land', 'w1', '--json']);
    expect(land.code, land.stdout + land.stderr).toBe(1);
    expect(land.json.error.code).toBe('worktree-missing');
    expect(land.json.error.message).toContain(worktree);
    expect(land.json.error.message).toContain('worktree-w1');
    expect(land.stdout + land.stderr).not.toMatch(/no changes/);
  }, 90_000);
});
