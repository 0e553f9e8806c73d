/**
 * Before a sandboxed worker starts, the repository's loose objects are packed (a worker could
 * rewrite a loose object's file; a packed one is out of its reach). With nothing loose there is
 * nothing to pack, and git is not started for it. The rule: whatever is loose when a worker would
 * start is packed; a store that cannot be read, or that borrows objects from elsewhere, is
 * repacked as before, never skipped on a guess.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsLooseObjects, packLooseObjects } from '../../io/git/pack-loose-objects.ts';
import { gitCommonDir } from '../../io/git/common-dir.ts';
import { commitFile, git, makeRepo, trackFixtures } from './git-fixture.ts';

const track = trackFixtures();

describe('a repository with nothing loose is not repacked', () => {
  it('packs what a commit left loose, then skips the repack until something is loose again', async () => {
    const f = track(makeRepo({ label: 'loose-objects' }));
    commitFile(f.repo, 'a.txt', 'a\n');
    const gitDir = (await gitCommonDir(f.repo))!;
    expect(holdsLooseObjects(gitDir)).toBe(true);

    expect(await packLooseObjects(f.repo, gitDir)).toBe('packed');
    expect(git(f.repo, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect(holdsLooseObjects(gitDir)).toBe(false);
    expect(await packLooseObjects(f.repo, gitDir)).toBe('nothing-loose');

    // A new commit leaves objects loose again: they are packed, not skipped.
    commitFile(f.repo, 'b.txt', 'b\n');
    expect(holdsLooseObjects(gitDir)).toBe(true);
    expect(await packLooseObjects(f.repo, gitDir)).toBe('packed');
    expect(git(f.repo, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    // Without the git directory the repack runs, as it always did.
    expect(await packLooseObjects(f.repo)).toBe('packed');
  });

  it('any doubt runs the repack: a store that borrows objects, git object variables, a directory that cannot be read', async () => {
    const f = track(makeRepo({ label: 'loose-doubt' }));
    const gitDir = (await gitCommonDir(f.repo))!;
    await packLooseObjects(f.repo, gitDir);
    expect(holdsLooseObjects(gitDir)).toBe(false);
    expect(holdsLooseObjects(gitDir, { GIT_OBJECT_DIRECTORY: '/elsewhere' })).toBeNull();
    expect(holdsLooseObjects(gitDir, { GIT_ALTERNATE_OBJECT_DIRECTORIES: '/elsewhere' })).toBeNull();
    expect(holdsLooseObjects(join(f.root, 'no-such-git-dir'))).toBeNull();
    mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), '/elsewhere/objects\n');
    expect(holdsLooseObjects(gitDir)).toBeNull();
  });

  it('a file of any name in a fan-out directory counts as loose (a half-written object too)', async () => {
    const f = track(makeRepo({ label: 'loose-odd' }));
    const gitDir = (await gitCommonDir(f.repo))!;
    await packLooseObjects(f.repo, gitDir);
    expect(holdsLooseObjects(gitDir)).toBe(false);
    mkdirSync(join(gitDir, 'objects', 'ab'), { recursive: true });
    expect(holdsLooseObjects(gitDir)).toBe(false);
    writeFileSync(join(gitDir, 'objects', 'ab', 'tmp_obj_x'), '');
    expect(holdsLooseObjects(gitDir)).toBe(true);
  });
});
