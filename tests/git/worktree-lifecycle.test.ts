import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorktree } from '../../io/git/worktree-create.ts';
import { removeWorktree } from '../../io/git/worktree-remove.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { commitFile, git, makeClonedRepo, makeRepo, trackFixtures } from './git-fixture.ts';

const track = trackFixtures();

const branches = (repo: string) => git(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort();
const registered = (repo: string) =>
  git(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice(9));

async function rejection(p: Promise<unknown>): Promise<RefusedError | UsageError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err === null ? 'resolved' : 'rejected').toBe('rejected');
  return err as RefusedError;
}

describe('worker worktrees', () => {
  it('a new worker gets <repo>/.claude/worktrees/<id> on branch worktree-<id> cut from the base', async () => {
    const f = track(makeClonedRepo());
    const base = git(f.repo, 'rev-parse', 'origin/main');
    const w = await createWorktree({ repo: f.repo, id: 'T-1001', base: 'origin/main' });
    expect(w).toEqual({ worktree: join(f.repo, '.claude', 'worktrees', 'T-1001'), branch: 'worktree-T-1001', action: 'created' });
    expect(git(w.worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('worktree-T-1001');
    expect(git(w.worktree, 'rev-parse', 'HEAD')).toBe(base);
    expect(registered(f.repo)).toContain(w.worktree);
  });

  it('worker worktrees and agent settings stay out of git status (local exclude, nothing tracked changes)', async () => {
    const f = track(makeRepo());
    const w = await createWorktree({ repo: f.repo, id: 'T-1', base: 'main' });
    mkdirSync(join(w.worktree, '.claude'), { recursive: true });
    writeFileSync(join(w.worktree, '.claude', 'settings.local.json'), '{}\n');
    expect(git(f.repo, 'status', '--porcelain')).toBe('');
    expect(git(w.worktree, 'status', '--porcelain')).toBe('');
    await createWorktree({ repo: f.repo, id: 'T-1', base: 'main' });
    const exclude = readFileSync(join(f.repo, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.match(/^\/\.claude\/worktrees\/$/gm)).toHaveLength(1); // idempotent
  });

  it('re-dispatch reuses a registered worktree and keeps work in progress', async () => {
    const f = track(makeRepo());
    const first = await createWorktree({ repo: f.repo, id: 'T-2', base: 'main' });
    writeFileSync(join(first.worktree, 'half-done.txt'), 'wip\n');
    commitFile(f.repo, 'moved.txt', 'base moved\n');
    const again = await createWorktree({ repo: f.repo, id: 'T-2', base: 'main' });
    expect(again).toEqual({ ...first, action: 'reused' });
    expect(readFileSync(join(first.worktree, 'half-done.txt'), 'utf8')).toBe('wip\n');
  });

  it('a surviving branch is checked out again, not re-cut from a moved base', async () => {
    const f = track(makeRepo());
    const w = await createWorktree({ repo: f.repo, id: 'T-3', base: 'main' });
    const workerCommit = commitFile(w.worktree, 'feature.txt', 'done\n');
    git(f.repo, 'worktree', 'remove', w.worktree);
    commitFile(f.repo, 'moved.txt', 'base moved\n');
    const again = await createWorktree({ repo: f.repo, id: 'T-3', base: 'main' });
    expect(again.action).toBe('branch-checked-out');
    expect(git(again.worktree, 'rev-parse', 'HEAD')).toBe(workerCommit);
  });

  it('a hand-deleted worktree directory is pruned and its branch checked out again', async () => {
    const f = track(makeRepo());
    const w = await createWorktree({ repo: f.repo, id: 'T-4', base: 'main' });
    rmSync(w.worktree, { recursive: true, force: true });
    const again = await createWorktree({ repo: f.repo, id: 'T-4', base: 'main' });
    expect(again.action).toBe('branch-checked-out');
    expect(existsSync(join(again.worktree, 'README.md'))).toBe(true);
  });

  it('a directory git does not own is refused and left untouched, nothing created', async () => {
    const f = track(makeRepo());
    const path = join(f.repo, '.claude', 'worktrees', 'T-5');
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, 'mine.txt'), 'precious\n');
    const before = branches(f.repo);
    const err = await rejection(createWorktree({ repo: f.repo, id: 'T-5', base: 'main' }));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.code).toBe('worktree-path-not-owned');
    expect(err.message).toContain(path);
    expect(readFileSync(join(path, 'mine.txt'), 'utf8')).toBe('precious\n');
    expect(branches(f.repo)).toEqual(before);
    expect(registered(f.repo)).not.toContain(path);
  });

  it("a registered worktree without the worker's branch is refused as not a worker's checkout", async () => {
    const f = track(makeRepo());
    const path = join(f.repo, '.claude', 'worktrees', 'T-6');
    git(f.repo, 'worktree', 'add', '-q', '-b', 'somebody-else', path, 'main');
    const err = await rejection(createWorktree({ repo: f.repo, id: 'T-6', base: 'main' }));
    expect(err.code).toBe('worktree-not-a-worker');
    expect(branches(f.repo)).not.toContain('worktree-T-6');
  });

  it('a base that names no commit is refused before anything is created', async () => {
    const f = track(makeRepo());
    const err = await rejection(createWorktree({ repo: f.repo, id: 'T-8', base: 'origin/main' }));
    expect(err.code).toBe('base-ref-missing');
    expect(err.message).toContain('origin/main');
    expect(branches(f.repo)).toEqual(['main']);
    expect(existsSync(join(f.repo, '.claude', 'worktrees', 'T-8'))).toBe(false);
  });

  it.each(['../escape', 'a/b', '-rf', '', 'x..y', 'name.lock', 'sp ace'])('an unsafe worker id %j is bad usage, nothing created', async (id) => {
    const f = track(makeRepo());
    const err = await rejection(createWorktree({ repo: f.repo, id, base: 'main' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.code).toBe('invalid-worker-id');
    expect(existsSync(join(f.repo, '.claude'))).toBe(false);
  });
});

describe('worker worktree removal', () => {
  it('a clean worker worktree (with its agent settings) is removed and pruned; the branch stays', async () => {
    const f = track(makeRepo());
    const w = await createWorktree({ repo: f.repo, id: 'T-9', base: 'main' });
    mkdirSync(join(w.worktree, '.claude'), { recursive: true });
    writeFileSync(join(w.worktree, '.claude', 'settings.local.json'), '{}\n');
    expect(await removeWorktree({ repo: f.repo, worktree: w.worktree })).toBe('removed');
    expect(existsSync(w.worktree)).toBe(false);
    expect(registered(f.repo)).not.toContain(w.worktree);
    expect(branches(f.repo)).toContain('worktree-T-9');
  });

  it('a worktree with unlanded work is never forced: refused, and everything stays', async () => {
    const f = track(makeRepo());
    const w = await createWorktree({ repo: f.repo, id: 'T-10', base: 'main' });
    writeFileSync(join(w.worktree, 'unlanded.txt'), 'work\n');
    const err = await rejection(removeWorktree({ repo: f.repo, worktree: w.worktree }));
    expect(err.code).toBe('worktree-remove-refused');
    expect(err.message).toMatch(/untracked|modified/);
    expect(readFileSync(join(w.worktree, 'unlanded.txt'), 'utf8')).toBe('work\n');
    expect(registered(f.repo)).toContain(w.worktree);
  });

  it('a directory git does not own is never deleted', async () => {
    const f = track(makeRepo());
    const path = join(f.repo, '.claude', 'worktrees', 'T-11');
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, 'mine.txt'), 'x');
    const err = await rejection(removeWorktree({ repo: f.repo, worktree: path }));
    expect(err.code).toBe('worktree-path-not-owned');
    expect(existsSync(join(path, 'mine.txt'))).toBe(true);
  });

  it('removing a worktree that is already gone reports absent', async () => {
    const f = track(makeRepo());
    expect(await removeWorktree({ repo: f.repo, worktree: join(f.repo, '.claude', 'worktrees', 'T-12') })).toBe('absent');
  });

  it('only worker worktrees can be removed: the main checkout or another path is bad usage', async () => {
    const f = track(makeRepo());
    for (const target of [f.repo, join(f.root, 'elsewhere')]) {
      const err = await rejection(removeWorktree({ repo: f.repo, worktree: target }));
      expect(err).toBeInstanceOf(UsageError);
    }
    expect(existsSync(join(f.repo, 'README.md'))).toBe(true);
  });
});
