/**
 * `hand discard` through the real binary: real daemon, real tmux on the state directory's private
 * socket, the mock agent, a temp git repository. Each refusal leaves everything in place; a
 * discard leaves no worktree, pane or tmux session, keeps the branch and the brief and report
 * (archived), and the id can be dispatched again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { GIT_TEST_ENV } from '../helpers/git-repo.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_TEST_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function tmuxSessions(home: string): string[] {
  try {
    return execFileSync('tmux', ['-S', join(home, 'tmux.sock'), 'list-sessions', '-F', '#{session_name}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .filter((s) => s && s !== 'kh-monitor');
  } catch {
    return []; // no server: no sessions
  }
}

async function dispatchSettled(w: CliWorld, id: string): Promise<void> {
  const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hi.'), '--agent', 'mock', '--backend', 'tmux', '--json']);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  const s = await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s', '--json']);
  expect(s.code, s.stdout + s.stderr).toBe(0);
}

describe('hand discard', () => {
  it('refusals leave everything in place; a discard removes worktree, pane and session, keeps branch and report, frees the id', async () => {
    world = await makeCliWorld('discard');
    const w = world;
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    await dispatchSettled(w, 'd1');
    const wt = join(w.repo, '.claude', 'worktrees', 'd1');
    const briefDir = join(w.home, 'workers', 'd1');
    const inPlace = async () => {
      expect(existsSync(wt)).toBe(true);
      expect(git(w.repo, 'branch', '--list', 'worktree-d1')).toContain('worktree-d1');
      expect(existsSync(join(briefDir, 'brief.md'))).toBe(true);
      const st = await w.hand(['status', 'd1', '--json']);
      expect(st.code).toBe(0);
    };

    // A running worker is refused.
    const running = await w.hand(['discard', 'd1', '--json']);
    expect(running.code).toBe(1);
    expect(running.json.error.code).toBe('worker-not-finished');
    expect(running.json.error.message).toContain('hand stop d1');
    expect(tmuxSessions(w.home).length).toBe(1);
    await inPlace();

    expect((await w.hand(['stop', 'd1', '--json'])).code).toBe(0);

    // Uncommitted files refuse, naming them.
    writeFileSync(join(wt, 'notes.txt'), 'unlanded\n');
    const dirty = await w.hand(['discard', 'd1', '--json']);
    expect(dirty.code).toBe(1);
    expect(dirty.json.error.code).toBe('worktree-has-uncommitted-files');
    expect(dirty.json.error.message).toContain('notes.txt');
    await inPlace();
    expect(existsSync(join(wt, 'notes.txt'))).toBe(true);

    // Commits on no other branch: --delete-branch refuses without the confirmation.
    git(wt, 'add', 'notes.txt');
    git(wt, 'commit', '-q', '-m', 'work only on the worker branch');
    const unmerged = await w.hand(['discard', 'd1', '--delete-branch', '--json']);
    expect(unmerged.code).toBe(1);
    expect(unmerged.json.error.code).toBe('branch-has-unmerged-commits');
    expect(unmerged.json.error.message).toContain('work only on the worker branch');
    await inPlace();

    const ok = await w.hand(['discard', 'd1', '--json']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ id: 'd1', worktree: 'removed', branch: 'kept', branchName: 'worktree-d1' });
    expect(existsSync(wt)).toBe(false);
    // The worktree's path, not its id alone: a commit hash in the listing may contain "d1".
    expect(git(w.repo, 'worktree', 'list')).not.toContain(join('worktrees', 'd1'));
    expect(git(w.repo, 'log', '--oneline', 'worktree-d1')).toContain('work only on the worker branch');
    expect(tmuxSessions(w.home)).toEqual([]);
    expect(existsSync(briefDir)).toBe(false);
    expect(existsSync(join(ok.json.archivedTo, 'brief.md'))).toBe(true);
    expect((await w.hand(['status', '--json'])).json.map((r: { id: string }) => r.id)).not.toContain('d1');

    // The id is free again (the old branch must go first: dispatch makes worktree-d1 anew).
    git(w.repo, 'branch', '-D', 'worktree-d1');
    await dispatchSettled(w, 'd1');
    expect(existsSync(wt)).toBe(true);
  });

  it('--all-finished discards every finished worker and --delete-branch deletes a merged branch', async () => {
    world = await makeCliWorld('discard-all');
    const w = world;
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    await dispatchSettled(w, 'a1');
    await dispatchSettled(w, 'a2');
    expect((await w.hand(['stop', 'a1', '--json'])).code).toBe(0);
    const all = await w.hand(['discard', '--all-finished', '--delete-branch', '--json']);
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect(all.json.discarded.map((d: { id: string }) => d.id)).toEqual(['a1']);
    expect(all.json.discarded[0].branch).toBe('deleted');
    expect(git(w.repo, 'branch', '--list', 'worktree-a1')).toBe('');
    // a2 still runs: not finished, untouched.
    expect(existsSync(join(w.repo, '.claude', 'worktrees', 'a2'))).toBe(true);
    expect(readdirSync(join(w.home, 'archive')).some((d) => d.startsWith('a1-'))).toBe(true);
    rmSync(join(w.home, 'archive'), { recursive: true });
  });

  it('bad usage: neither an id nor --all-finished, or --discard-commits alone', async () => {
    world = await makeCliWorld('discard-usage');
    expect((await world.hand(['discard'])).code).toBe(2);
    expect((await world.hand(['discard', 'x', '--discard-commits'])).code).toBe(2);
  });
});
