/**
 * Issue 25 #4: a repository moved away under its workers. Before, `hand discard` read the missing
 * worktree as absent, dropped the worker's record, and the worktree was orphaned when the
 * repository was moved back. Now the discard is refused while the repository is away, naming it,
 * the worktree and the ways out, and nothing changes; moved back, the discard removes the
 * worktree as usual.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, renameSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();

describe('a moved repository is named, never forgotten', () => {
  it('discard refuses while the repository is away and removes the worktree once it is back', async () => {
    const w = await world('moved-repo');
    await w.call('annex', { repo: w.repo, name: 'p', yolo: true });
    const d = await w.dispatch('m1', 'Say hi.');
    await w.call('wait', { id: 'm1', until: 'settled', timeoutMs: 60_000 });
    await w.call('stop', { id: 'm1', timeoutMs: 30_000 });

    const away = `${w.repo}-moved`;
    renameSync(w.repo, away);
    try {
      const r = await w.refusal('discard', { id: 'm1' });
      expect(r.code, r.message).toBe('repository-missing');
      expect(r.message).toContain(`repository ${w.repo} is not there any more`);
      expect(r.message).toContain(`move the repository back to ${w.repo}`);
      expect(r.message).toContain('hand discard m1 --forget');
      // Nothing changed: the worker is still on record.
      expect((await w.call('status', {})).map((row: { id: string }) => row.id)).toContain('m1');
    } finally {
      renameSync(away, w.repo);
    }
    const done = await w.call('discard', { id: 'm1' });
    expect(done.worktree).toBe('removed');
    expect(existsSync(d.worktree)).toBe(false);
    expect(execFileSync('git', ['-C', w.repo, 'worktree', 'list'], { encoding: 'utf8' })).not.toContain('.claude/worktrees/m1');
  });
});
