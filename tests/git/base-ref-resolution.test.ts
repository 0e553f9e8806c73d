import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveBaseRef } from '../../io/git/base-ref.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { commitFile, git, makeClonedRepo, makeRepo, trackFixtures } from './git-fixture.ts';

const track = trackFixtures();

function declare(repo: string, body: string) {
  writeFileSync(join(repo, '.no-mistakes.yaml'), body);
}

/** Makes the local branch `branch`, declares `base_branch: <value>` (block form), and resolves. */
function resolveWithLocalBranch(repo: string, branch: string, value = branch) {
  git(repo, 'branch', branch);
  declare(repo, `pr:\n  base_branch: ${value}\n`);
  return resolveBaseRef(repo);
}

async function refusal(p: Promise<unknown>): Promise<RefusedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RefusedError);
  return err as RefusedError;
}

describe('base ref resolution', () => {
  it('declared pr.base_branch wins over origin/HEAD, remote copy first', async () => {
    const f = track(makeClonedRepo());
    git(f.repo, 'branch', 'dev');
    git(f.repo, 'push', '-q', 'origin', 'dev');
    declare(f.repo, 'pr:\n  draft: true\n  base_branch: dev # integration\n');
    const r = await resolveBaseRef(f.repo);
    expect(r).toMatchObject({ base: 'origin/dev', source: 'declared', warnings: [] });
  });

  it('a declared branch that exists only locally on a repo with an origin is used, with a stale-copy warning', async () => {
    const f = track(makeClonedRepo());
    const r = await resolveWithLocalBranch(f.repo, 'dev', '"dev"');
    expect(r.base).toBe('dev');
    expect(r.warnings.join('\n')).toMatch(/only as a local branch.*stale/);
  });

  it('an unresolvable declared branch warns "fetch" with an origin and falls through to origin/HEAD', async () => {
    const f = track(makeClonedRepo());
    declare(f.repo, 'pr:\n  base_branch: release\n');
    const r = await resolveBaseRef(f.repo);
    expect(r).toMatchObject({ base: 'origin/main', source: 'origin-head' });
    expect(r.warnings.join('\n')).toMatch(/'release'.*fetch it if origin has it/);
  });

  it('an unresolvable declared branch on a remoteless repo says create or correct, never fetch', async () => {
    const f = track(makeRepo());
    declare(f.repo, 'pr:\n  base_branch: release\n');
    const r = await resolveBaseRef(f.repo);
    expect(r.base).toBe('main');
    const said = r.warnings.join('\n');
    expect(said).toMatch(/create it or correct/);
    expect(said).not.toMatch(/fetch/);
  });

  it('a declared worker branch is rejected on its name alone', async () => {
    const f = track(makeRepo());
    const r = await resolveWithLocalBranch(f.repo, 'worktree-T-1');
    expect(r.base).toBe('main');
    expect(r.rejected).toContain('worktree-T-1');
    expect(r.warnings.join('\n')).toMatch(/worker branch/);
  });

  it('origin/HEAD is the base when nothing is declared', async () => {
    const f = track(makeClonedRepo());
    git(f.repo, 'checkout', '-q', '-b', 'feature');
    expect((await resolveBaseRef(f.repo)).base).toBe('origin/main');
  });

  it('a worker branch as origin/HEAD is rejected and the next candidate is used', async () => {
    const f = track(makeClonedRepo());
    git(f.repo, 'checkout', '-q', '-b', 'worktree-T-7');
    commitFile(f.repo, 'work.txt', 'w\n');
    git(f.repo, 'push', '-q', 'origin', 'worktree-T-7');
    git(f.repo, 'checkout', '-q', 'main');
    git(f.repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/worktree-T-7');
    const r = await resolveBaseRef(f.repo);
    expect(r).toMatchObject({ base: 'origin/main', source: 'current-branch' });
    expect(r.rejected).toEqual(['origin/worktree-T-7']);
  });

  it('a branch whose name merely contains worktree- is an ordinary base', async () => {
    const f = track(makeRepo({ branch: 'feature/worktree-cleanup' }));
    expect(await resolveBaseRef(f.repo)).toMatchObject({ base: 'feature/worktree-cleanup', source: 'current-branch' });
  });

  it('the current branch is tried as origin/<branch> before the local branch', async () => {
    const f = track(makeClonedRepo());
    git(f.repo, 'remote', 'set-head', 'origin', '--delete');
    git(f.repo, 'checkout', '-q', '-b', 'topic');
    git(f.repo, 'push', '-q', 'origin', 'topic');
    expect((await resolveBaseRef(f.repo)).base).toBe('origin/topic');
    git(f.repo, 'checkout', '-q', '-b', 'local-only-branch');
    expect(await resolveBaseRef(f.repo)).toMatchObject({ base: 'local-only-branch', source: 'current-branch' });
  });

  it('a current branch that is a worker branch is never the base', async () => {
    const f = track(makeRepo());
    git(f.repo, 'checkout', '-q', '-b', 'worktree-T-2');
    const r = await resolveBaseRef(f.repo);
    expect(r).toMatchObject({ base: 'main', source: 'default-branch' });
    expect(r.rejected).toContain('worktree-T-2');
  });

  it('a detached HEAD falls through to main or master', async () => {
    const f = track(makeRepo({ branch: 'master' }));
    git(f.repo, 'checkout', '-q', '--detach');
    expect(await resolveBaseRef(f.repo)).toMatchObject({ base: 'master', source: 'default-branch' });
  });

  it('nothing resolvable refuses and never invents origin/main on a remoteless repo', async () => {
    const f = track(makeRepo({ branch: 'trunk' }));
    git(f.repo, 'checkout', '-q', '--detach');
    git(f.repo, 'branch', '-q', '-D', 'trunk');
    declare(f.repo, 'pr:\n  base_branch: dev\n');
    const err = await refusal(resolveBaseRef(f.repo));
    expect(err.code).toBe('base-ref-unresolvable');
    expect(err.message).toMatch(/Cannot resolve a base ref/);
    expect(err.message).toMatch(/declared pr\.base_branch 'dev'/);
    expect(err.message).not.toMatch(/git fetch/);
  });

  it('an empty repository (no commits) refuses', async () => {
    const f = track(makeRepo({ empty: true }));
    expect((await refusal(resolveBaseRef(f.repo))).code).toBe('base-ref-unresolvable');
  });

  it('the refusal names the worker branches it rejected', async () => {
    const f = track(makeRepo({ empty: true, branch: 'worktree-T-3' }));
    const err = await refusal(resolveBaseRef(f.repo));
    expect(err.message).toMatch(/origin\/worktree-T-3, worktree-T-3 were rejected/);
    expect(err.details.rejected).toEqual(['origin/worktree-T-3', 'worktree-T-3']);
  });

  it('an inline pr: {base_branch: …} declaration is refused (write the block form)', async () => {
    const f = track(makeRepo());
    declare(f.repo, 'pr: {base_branch: dev}\n');
    const err = await resolveBaseRef(f.repo).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toMatch(/block form/);
  });

  it('a directory at .no-mistakes.yaml is refused, not read as absent', async () => {
    const f = track(makeRepo());
    mkdirSync(join(f.repo, '.no-mistakes.yaml'));
    expect((await refusal(resolveBaseRef(f.repo))).code).toBe('no-mistakes-config-unreadable');
  });

  it('a path that is not a git work tree is bad usage', async () => {
    const f = track(makeRepo());
    const plain = join(f.root, 'plain');
    mkdirSync(plain);
    const err = await resolveBaseRef(plain).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain(plain);
  });
});
