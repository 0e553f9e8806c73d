/**
 * The base-ref candidates are asked of one `git cat-file --batch-check` instead of one
 * `rev-parse --verify` each. The rule: for every name, the batch answers what `commitExists`
 * answers (branches, remote-tracking names, tags, a tag on a tree, HEAD, a sha, missing names);
 * a name that cannot go on a batch line, or a git that does not answer line for line, is null
 * (asked one by one), never a guess.
 */
import { describe, expect, it } from 'vitest';
import { commitExists, commitsExist } from '../../io/git/run-git.ts';
import { resolveBaseRef } from '../../io/git/base-ref.ts';
import { commitFile, git, makeClonedRepo, trackFixtures } from './git-fixture.ts';

const track = trackFixtures();

describe('one git process answers which refs name a commit', () => {
  it('answers each name as commitExists does', async () => {
    const f = track(makeClonedRepo({ label: 'refs-batch' }));
    commitFile(f.repo, 'b.txt', 'b\n');
    git(f.repo, 'branch', 'feature');
    git(f.repo, 'tag', 'v1');
    git(f.repo, 'tag', 'tree-tag', git(f.repo, 'rev-parse', 'HEAD^{tree}'));
    const sha = git(f.repo, 'rev-parse', 'HEAD');
    const refs = ['main', 'origin/main', 'origin/HEAD', 'feature', 'v1', 'tree-tag', 'HEAD', sha, 'master', 'origin/master', 'nope/deeper', '-looks-like-a-flag'];
    const batch = await commitsExist(f.repo, refs);
    expect(batch).not.toBeNull();
    for (const ref of refs) expect(batch!.get(ref), ref).toBe(await commitExists(f.repo, ref));
    expect([...batch!.entries()].filter(([, v]) => v).map(([k]) => k)).toEqual(['main', 'origin/main', 'origin/HEAD', 'feature', 'v1', 'HEAD', sha]);
  });

  it('a name that cannot be a batch line is left to the one-by-one question', async () => {
    const f = track(makeClonedRepo({ label: 'refs-batch-odd' }));
    expect(await commitsExist(f.repo, ['main', 'has space'])).toBeNull();
    expect(await commitsExist(f.repo, ['main', 'line\nbreak'])).toBeNull();
    expect(await commitsExist(f.repo, [])).toEqual(new Map());
  });

  it('a directory git cannot read as a repository is null, and the resolution still refuses by name', async () => {
    const f = track(makeClonedRepo({ label: 'refs-batch-norepo' }));
    expect(await commitsExist(f.root, ['main'])).toBeNull();
    await expect(resolveBaseRef(f.root)).rejects.toThrow(f.root);
  });

  it('the resolution keeps its order: origin/HEAD before the current branch before main', async () => {
    const f = track(makeClonedRepo({ label: 'refs-batch-order' }));
    git(f.repo, 'checkout', '-q', '-b', 'topic');
    expect(await resolveBaseRef(f.repo)).toMatchObject({ base: 'origin/main', source: 'origin-head' });
    git(f.repo, 'remote', 'set-head', 'origin', '-d');
    expect(await resolveBaseRef(f.repo)).toMatchObject({ base: 'topic', source: 'current-branch' });
  });
});
