import { describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGitWorkTree, repoTopLevel } from '../../io/git/work-tree.ts';
import { UsageError } from '../../contract/errors.ts';
import { makeRepo, trackFixtures } from './git-fixture.ts';
import { makeTempDir } from '../helpers/temp.ts';

const track = trackFixtures();

describe('is this a git work tree (three-valued)', () => {
  it('yes inside a checkout, no in a plain directory, a file, a missing path or a .git dir', async () => {
    const f = track(makeRepo());
    const plain = join(f.root, 'plain');
    mkdirSync(plain);
    writeFileSync(join(f.root, 'file'), 'x');
    mkdirSync(join(f.repo, 'sub'));
    expect(await isGitWorkTree(f.repo)).toBe('yes');
    expect(await isGitWorkTree(join(f.repo, 'sub'))).toBe('yes');
    expect(await isGitWorkTree(plain)).toBe('no');
    expect(await isGitWorkTree(join(f.root, 'file'))).toBe('no');
    expect(await isGitWorkTree(join(f.root, 'missing'))).toBe('no');
    expect(await isGitWorkTree(join(f.repo, '.git'))).toBe('no');
  });

  it('a git that cannot be run is "unknown", never "no"', async () => {
    const f = track(makeRepo());
    const empty = makeTempDir('nopath');
    const saved = process.env.PATH;
    process.env.PATH = empty.path; // no git on PATH for this probe only
    try {
      expect(await isGitWorkTree(f.repo)).toBe('unknown');
    } finally {
      process.env.PATH = saved;
      empty.cleanup();
    }
  });
});

describe('repository top level', () => {
  it('is the real path of the checkout root, from any subdirectory or through a symlink', async () => {
    const f = track(makeRepo());
    mkdirSync(join(f.repo, 'a', 'b'), { recursive: true });
    symlinkSync(f.repo, join(f.root, 'link'));
    expect(await repoTopLevel(join(f.repo, 'a', 'b'))).toBe(f.repo);
    expect(await repoTopLevel(join(f.root, 'link'))).toBe(f.repo);
  });

  it('refuses a path that is not a work tree, naming it', async () => {
    const f = track(makeRepo());
    const plain = join(f.root, 'plain');
    mkdirSync(plain);
    for (const p of [plain, join(f.root, 'missing')]) {
      const err = await repoTopLevel(p).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toContain(p);
    }
  });
});
