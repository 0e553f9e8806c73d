import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { landLocalOnly, resolveBaseRef } from '../../io/git/index.ts';
import { HandError } from '../../contract/errors.ts';
import { commitFile, git, makeClonedRepo, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { head, workerWith, workerPastUpstream } from './landing-fixture.ts';

const track = trackFixtures();

async function refusalOf(p: Promise<unknown>): Promise<HandError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(HandError);
  return e as HandError;
}

describe('local-only landing is a fast-forward only', () => {
  it('fast-forwards the checked-out base branch to a worker branch with one commit', async () => {
    const fx = track(makeRepo({ label: 'land-ff' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'greet.txt', message: 'add a greeting' }]);
    const r = await landLocalOnly({ repo: fx.repo, branch: w.branch, base: 'main' });
    expect(r.via).toBe('merge --ff-only');
    expect(head(fx.repo, 'main')).toBe(head(fx.repo, w.branch));
    expect(git(fx.repo, 'show', 'HEAD:greet.txt')).toBe('add a greeting');
    expect(git(fx.repo, 'rev-list', '--merges', '--count', 'main')).toBe('0');
  });

  it('moves a base branch no checkout has by a compare-and-swap ref update', async () => {
    const fx = track(makeRepo({ label: 'land-ff' }));
    git(fx.repo, 'branch', 'dev');
    const w = await workerWith(fx.repo, 'dev', [{ file: 'd.txt', message: 'dev change' }]);
    const r = await landLocalOnly({ repo: fx.repo, branch: w.branch, base: 'dev' });
    expect(r.via).toBe('update-ref');
    expect(head(fx.repo, 'dev')).toBe(head(fx.repo, w.branch));
    expect(head(fx.repo, 'main')).not.toBe(head(fx.repo, 'dev'));
  });

  it('refuses when the base moved on (not fast-forwardable), naming the way to land it again, and changes nothing', async () => {
    const fx = track(makeRepo({ label: 'land-ff' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'worker change' }]);
    commitFile(fx.repo, 'b.txt', 'b\n', 'someone else landed first');
    const before = head(fx.repo, 'main');
    const err = await refusalOf(landLocalOnly({ repo: fx.repo, branch: w.branch, base: 'main', worktree: w.worktree }));
    expect(err.code).toBe('landing-not-fast-forward');
    expect(err.message).toMatch(/Run hand land \S+ again: it says whether the branch applies cleanly onto main now \(then hand land \S+ --rebase/);
    expect(head(fx.repo, 'main')).toBe(before);
  });

  it('lands a remote-tracking base into its local branch and warns when local is behind origin', async () => {
    const fx = track(makeClonedRepo({ label: 'land-clone' }));
    const w = await workerPastUpstream(fx, { file: 'up.txt', message: 'upstream' }, { file: 'mine.txt', message: 'mine' });
    const r = await landLocalOnly({ repo: fx.repo, branch: w.branch, base: 'origin/main' });
    expect(r.target).toBe('main');
    expect(r.warnings.join(' ')).toContain('1 commit(s) behind origin/main');
    expect(head(fx.repo, 'main')).toBe(head(fx.repo, w.branch));
  });

  it('lands into the declared integration branch, refusing first while it has no local branch', async () => {
    const fx = track(makeClonedRepo({ label: 'land-declared' }));
    const seed = join(fx.root, 'seed');
    git(seed, 'branch', 'dev');
    git(seed, 'push', '-q', fx.origin!, 'dev');
    git(fx.repo, 'fetch', '-q', 'origin');
    writeFileSync(join(fx.repo, '.no-mistakes.yaml'), 'pr:\n  base_branch: dev\n');
    const { base } = await resolveBaseRef(fx.repo);
    expect(base).toBe('origin/dev');
    const w = await workerWith(fx.repo, base, [{ file: 'x.txt', message: 'x' }]);
    const err = await refusalOf(landLocalOnly({ repo: fx.repo, branch: w.branch, base }));
    expect(err.code).toBe('landing-target-missing');
    expect(err.message).toContain('git branch dev origin/dev');
    git(fx.repo, 'branch', 'dev', 'origin/dev');
    const r = await landLocalOnly({ repo: fx.repo, branch: w.branch, base });
    expect(r).toMatchObject({ target: 'dev', via: 'update-ref' });
    expect(head(fx.repo, 'dev')).toBe(head(fx.repo, w.branch));
    expect(head(fx.repo, 'main')).not.toBe(head(fx.repo, 'dev'));
  });
});
