/**
 * Issue 25 #4, landing side: after an approved landing the worktree is removed through git; when
 * git cannot (immutable here), the landed worker's problem says the state and the way out — the
 * path and the git commands — instead of only git's refusal.
 * Skipped with the reason where `chattr +i` is refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLandingPort } from '../../daemon/gates/landing.ts';
import { makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { workerWith } from './landing-fixture.ts';

const track = trackFixtures();
const locked: string[] = [];
afterEach(() => {
  // the flag first, or the fixture's cleanup cannot delete the repository
  for (const p of locked.splice(0)) if (existsSync(p)) execFileSync('chattr', ['-R', '-i', p], { stdio: 'pipe' });
});

describe('a landed worktree git cannot remove names the way out', () => {
  it("the landing's teardown problem names the path, the fix and the git commands", async (ctx) => {
    const fx = track(makeRepo({ label: 'landed-stuck' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    try {
      execFileSync('chattr', ['+i', w.worktree], { stdio: 'pipe' });
    } catch (err) {
      return ctx.skip(`chattr +i is refused here: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
    }
    locked.push(w.worktree);
    const port = createLandingPort({ store: { getProject: () => undefined } as any, env: process.env });
    const r = await port.removeWorktree({ repo: fx.repo, worktree: w.worktree } as any);
    expect(r.problem).toContain('worktree kept: ');
    expect(r.problem).toContain(`The work is landed; ${w.worktree} is still on disk`);
    expect(r.problem).toContain(`chattr -R -i ${w.worktree}`);
    expect(r.problem).toContain(`git -C ${fx.repo} worktree remove ${w.worktree}`);
  });
});
