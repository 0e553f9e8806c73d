import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teardownWorker } from '../../io/git/index.ts';
import { git, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { workerWith } from './landing-fixture.ts';

const track = trackFixtures();

describe('teardown: stop, close pane, git worktree remove, prune', () => {
  it('runs in that order and keeps the branch and the brief directory', async () => {
    const fx = track(makeRepo({ label: 'teardown' }));
    const briefDir = join(fx.root, 'home', 'workers', 'T-1');
    mkdirSync(briefDir, { recursive: true });
    writeFileSync(join(briefDir, 'report.md'), 'done\n');
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    const calls: string[] = [];
    const out = await teardownWorker({ repo: fx.repo, worktree: w.worktree }, {
      stop: async () => (calls.push('stop'), true),
      closePane: async () => void calls.push(`close-pane(worktree present: ${existsSync(w.worktree)})`),
    });
    expect(out).toEqual({ done: true, worktree: 'removed', steps: ['stop', 'close-pane', 'worktree-remove+prune'] });
    expect(calls).toEqual(['stop', 'close-pane(worktree present: true)']);
    expect(existsSync(w.worktree)).toBe(false);
    expect(git(fx.repo, 'worktree', 'list', '--porcelain')).not.toContain(w.worktree);
    expect(git(fx.repo, 'branch', '--list', w.branch)).toContain(w.branch);
    expect(existsSync(join(briefDir, 'report.md'))).toBe(true);
  });

  it('touches nothing when the stop failed', async () => {
    const fx = track(makeRepo({ label: 'teardown' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    let closed = false;
    const out = await teardownWorker({ repo: fx.repo, worktree: w.worktree }, { stop: async () => false, closePane: async () => void (closed = true) });
    expect(out.done).toBe(false);
    expect(closed).toBe(false);
    expect(existsSync(w.worktree)).toBe(true);
  });

  it('never forces: a dirty worktree is unlanded work and stays', async () => {
    const fx = track(makeRepo({ label: 'teardown' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    writeFileSync(join(w.worktree, 'wip.txt'), 'unlanded\n');
    const out = await teardownWorker({ repo: fx.repo, worktree: w.worktree }, { stop: async () => true });
    expect(out.done).toBe(false);
    if (!out.done) expect(out.reason).toContain('unlanded work');
    expect(existsSync(join(w.worktree, 'wip.txt'))).toBe(true);
  });
});
