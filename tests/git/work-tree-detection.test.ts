import { describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGitWorkTree, repoTopLevel } from '../../io/git/work-tree.ts';
import { execFileSync } from 'node:child_process';
import { RefusedError, UsageError } from '../../contract/errors.ts';
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
    writeFileSync(join(f.root, 'file'), 'x');
    const bare = join(f.root, 'bare.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    for (const p of [plain, join(f.root, 'missing'), join(f.root, 'file'), join(f.repo, '.git'), bare]) {
      const err = await repoTopLevel(p).catch((e: unknown) => e);
      expect(err, p).toBeInstanceOf(UsageError);
      expect((err as UsageError).code, p).toBe(p.endsWith('missing') ? 'repo-not-found' : 'not-a-git-work-tree');
      expect((err as Error).message).toContain(p);
    }
  });

  it('a git that cannot be run is refused as git-unavailable, never "not a work tree"', async () => {
    const f = track(makeRepo());
    const empty = makeTempDir('nopath');
    const saved = process.env.PATH;
    process.env.PATH = empty.path;
    try {
      const err = await repoTopLevel(f.repo).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RefusedError);
      expect((err as RefusedError).code).toBe('git-unavailable');
    } finally {
      process.env.PATH = saved;
      empty.cleanup();
    }
  });
});
