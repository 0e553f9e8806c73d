import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatherLandingEvidence, GH_INSTALL_HINT, planDirectPr } from '../../io/git/index.ts';
import { HandError } from '../../contract/errors.ts';
import { git, makeClonedRepo, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { workerWith } from './landing-fixture.ts';

const track = trackFixtures();

/** A directory holding an executable named gh; it is never run by these tests. */
function pathWithGh(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gh'), '#!/bin/sh\nexit 99\n');
  chmodSync(join(bin, 'gh'), 0o755);
  return bin;
}

describe('direct-PR landing: push, then gh pr create', () => {
  it('refuses when gh is not installed, naming the install command, and pushes nothing', async () => {
    const fx = track(makeClonedRepo({ label: 'land-pr' }));
    const w = await workerWith(fx.repo, 'origin/main', [{ file: 'a.txt', message: 'a change' }]);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'origin/main' });
    const emptyBin = join(fx.root, 'empty-bin');
    mkdirSync(emptyBin);
    const err = await planDirectPr(e, { PATH: emptyBin }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(HandError);
    expect((err as HandError).code).toBe('gh-missing');
    expect((err as HandError).message).toContain(GH_INSTALL_HINT);
    expect((err as HandError).message).toContain('sudo apt-get install gh');
    expect(git(fx.origin!, 'branch', '--list', w.branch)).toBe('');
  });

  it('refuses a repository without an origin remote', async () => {
    const fx = track(makeRepo({ label: 'land-pr' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a change' }]);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'main' });
    const err = await planDirectPr(e, { PATH: pathWithGh(fx.root) }).catch((x: unknown) => x);
    expect((err as HandError).code).toBe('no-origin');
  });

  it('plans the exact argv: push the branch to origin, open a PR against the base branch', async () => {
    const fx = track(makeClonedRepo({ label: 'land-pr' }));
    const w = await workerWith(fx.repo, 'origin/main', [{ file: 'a.txt', message: 'add a' }]);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'origin/main' });
    const plan = await planDirectPr(e, { PATH: pathWithGh(fx.root) });
    expect(plan.gh).toBe(join(fx.root, 'bin', 'gh'));
    expect(plan.push).toEqual(['push', '--set-upstream', 'origin', 'refs/heads/worktree-T-1:refs/heads/worktree-T-1']);
    expect(plan.create.slice(0, 8)).toEqual(['pr', 'create', '--base', 'main', '--head', 'worktree-T-1', '--title', 'add a']);
    expect(plan.create[9]).toContain('a.txt');
    expect(plan.create.join(' ')).not.toMatch(/claude|assistant/i);
  });
});
