/**
 * Rule: a fleet dispatched in parallel into one repository gets every worktree. Concurrent
 * `git worktree add -b` in one repository raced on git's own metadata ("failed to read
 * .git/worktrees/<id>/commondir"), so the real ports serialise worktree creation per repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealPorts } from '../../io/ports/real-ports.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { intent } from './helpers/harness.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

describe('worktrees of one repository are made one at a time', () => {
  it('thirty workers dispatched at once all get their worktree and branch', async () => {
    tmp = makeTempDir('parallel-worktrees');
    const repo = join(tmp.path, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: GIT_ENV });
    writeFileSync(join(repo, 'README.md'), '# r\n');
    execFileSync('git', ['-C', repo, 'add', 'README.md'], { env: GIT_ENV });
    execFileSync('git', ['-C', repo, 'commit', '-q', '-m', 'init'], { env: GIT_ENV });
    const ports = createRealPorts({ fallbackEnv: {} });
    const ids = Array.from({ length: 30 }, (_, i) => `w${i}`);
    const results = await Promise.allSettled(
      ids.map((id) => ports.prepareWorktree(intent(id, { repo, base: 'main', worktree: join(repo, '.claude', 'worktrees', id) }), new AbortController().signal)),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    for (const id of ids) expect(existsSync(join(repo, '.claude', 'worktrees', id, 'README.md')), id).toBe(true);
    const branches = execFileSync('git', ['-C', repo, 'branch', '--list', 'worktree-*'], { encoding: 'utf8' });
    for (const id of ids) expect(branches).toContain(`worktree-${id}`);
  });
});
