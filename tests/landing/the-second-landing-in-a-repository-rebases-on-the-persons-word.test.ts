/**
 * Rule: the second landing in a repository is not a dead end (issue 40). Two workers cut from one
 * base: the first lands and the base moves on; the second was refused "rebase the worker's branch
 * yourself". Now `hand land` says how the branch applies to the base as it is now (git
 * merge-tree): cleanly — and `--rebase` (the person's word) rebases it onto the base in its
 * worktree, never a merge commit and nothing forced, then it lands — or with conflicts in named
 * files, refused with the steer the person can approve. Real git, mock workers on tmux.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld, type DaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

async function finishedWith(w: DaemonWorld, id: string, file: string, text: string): Promise<void> {
  await w.dispatch(id, `MODE:report ${join(w.home, 'workers', id, 'out', 'report.md')}`);
  await w.call('wait', { id, until: 'settled', timeoutMs: 30_000 });
  const wt = join(w.repo, '.claude', 'worktrees', id);
  writeFileSync(join(wt, file), text);
  git(wt, 'add', file);
  git(wt, '-c', 'user.name=w', '-c', 'user.email=w@example.invalid', 'commit', '-q', '-m', `${id}: ${file}`);
}

describe('the second landing in a repository', () => {
  it('a clean branch lands after a rebase the person asked for; a conflicting one is refused naming the files; no merge commit ever', async () => {
    const w = await world('second-landing', { annexYolo: true });
    await finishedWith(w, 'w1', 'one.txt', 'one\n');
    await finishedWith(w, 'w2', 'two.txt', 'two\n');
    await finishedWith(w, 'w3', 'one.txt', 'three wants this file\n');

    expect((await w.call('land', { id: 'w1' })).stage).toBe('landed');
    const mainAfterFirst = git(w.repo, 'rev-parse', 'main');
    const w2Before = git(w.repo, 'rev-parse', 'worktree-w2');

    const refused = await w.refusal('land', { id: 'w2' });
    expect(refused.code).toBe('landing-needs-rebase');
    expect(refused.message).toMatch(/main moved on by 1 commit\(s\) since worktree-w2 was cut.*applies cleanly.*hand land w2 --rebase/s);
    expect(git(w.repo, 'rev-parse', 'main'), 'nothing landed').toBe(mainAfterFirst);
    expect(git(w.repo, 'rev-parse', 'worktree-w2'), 'nothing changed').toBe(w2Before);

    const conflicted = await w.refusal('land', { id: 'w3' });
    expect(conflicted.code).toBe('landing-conflicts');
    expect(conflicted.details.conflicts).toEqual(['one.txt']);
    expect(conflicted.message).toContain('hand send w3');

    const landed = await w.call('land', { id: 'w2', rebase: true });
    expect(landed.stage).toBe('landed');
    expect(git(w.repo, 'log', '--format=%s', 'main')).toMatch(/^w2: two\.txt\nw1: one\.txt\n/);
    expect(git(w.repo, 'rev-list', '--merges', 'main'), 'no merge commit').toBe('');
    expect(git(w.repo, 'merge-base', '--is-ancestor', mainAfterFirst, 'main') === '', 'main only moved forward').toBe(true);
  }, 120_000);
});
