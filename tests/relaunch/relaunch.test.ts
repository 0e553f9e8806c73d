/**
 * `hand relaunch` through the real binary (real daemon, tmux, the mock agent, a temp git repo):
 * refused while the worker is working; otherwise the session leaves by /exit and a fresh one
 * starts in the same worktree and branch, its first prompt carrying the note and pointing at a
 * progress note that holds the note, the previous report and the commits since the base.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dispatchSettled, useCliWorld } from '../helpers/cli-world.ts';
import { GIT_TEST_ENV } from '../helpers/git-repo.ts';

const makeWorld = useCliWorld();

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_TEST_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('hand relaunch', () => {
  it('refuses a working worker; relaunches a settled one in the same worktree with the note and the previous report', async () => {
    const w = await makeWorld('relaunch');
    const d = await dispatchSettled(w, 'r1', 'Write the report. MODE:report');
    const reportPath = d.reportPath as string;
    const previous = readFileSync(reportPath, 'utf8');
    const wt = d.worktree as string;
    writeFileSync(join(wt, 'progress.txt'), 'half done\n');
    git(wt, 'add', 'progress.txt');
    git(wt, 'commit', '-q', '-m', 'first half of the work');

    // Working: refused, and the turn goes on untouched.
    expect((await w.hand(['send', 'r1', 'MODE:slow', 'keep', 'going', '--json'])).code).toBe(0);
    const busy = await w.hand(['relaunch', 'r1', '--note', 'try again', '--json']);
    expect(busy.code).toBe(1);
    expect(busy.json.error.code).toBe('worker-is-working');
    expect(busy.json.error.message).toContain('--force');
    expect((await w.hand(['status', 'r1', '--json'])).json[0].state).toBe('working');
    expect((await w.hand(['wait', 'r1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);

    const noteFile = join(w.root, 'note.md');
    writeFileSync(noteFile, 'The tests were flaky; skip the slow suite this time.\n');
    const r = await w.hand(['relaunch', 'r1', '--note', noteFile, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ id: 'r1', worktree: wt, branch: 'worktree-r1' });
    expect(r.json.firstPrompt).toContain('skip the slow suite');
    expect(r.json.firstPrompt).toContain(r.json.progressNotePath);
    expect(r.json.firstPrompt).toContain(d.briefPath);
    const note = readFileSync(r.json.progressNotePath, 'utf8');
    expect(note).toContain('skip the slow suite');
    expect(note).toContain(previous.trim());
    expect(note).toContain('first half of the work');
    expect(note).toContain('progress.txt');
    expect(existsSync(join(w.home, 'workers', 'r1', 'out', 'report-before-relaunch-1.md')), 'the previous report goes aside in out/').toBe(true);

    // Same worktree and branch: the commit and its file are still there.
    expect(readFileSync(join(wt, 'progress.txt'), 'utf8')).toBe('half done\n');
    expect(git(wt, 'log', '--oneline', '-1')).toContain('first half of the work');
    const again = await w.hand(['wait', 'r1', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(existsSync(reportPath)).toBe(true);

    const db = new Database(join(w.home, 'fleet.db'), { readonly: true });
    try {
      const rows = db.prepare("SELECT event_json FROM journal WHERE actor_id = 'worker:r1' AND event_json LIKE '%RELAUNCHED%'").all();
      expect(rows).toHaveLength(1);
    } finally {
      db.close();
    }
  });

  it('--force relaunches a working worker (stopped by /exit first); a gone worker is relaunched without a stop', async () => {
    const w = await makeWorld('relaunch-force');
    const d = await dispatchSettled(w, 'r2', 'Say hi.');
    expect((await w.hand(['send', 'r2', 'MODE:slow', 'go', '--json'])).code).toBe(0);
    const forced = await w.hand(['relaunch', 'r2', '--force', '--note', 'start over', '--json']);
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    expect(forced.json.stoppedFrom).toMatch(/^running/);
    expect((await w.hand(['wait', 'r2', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);

    expect((await w.hand(['send', 'r2', 'MODE:crash', '--json'])).code).toBe(0);
    expect((await w.hand(['wait', 'r2', '--until', 'exited', '--timeout', '30s', '--json'])).code).toBe(0);
    const revived = await w.hand(['relaunch', 'r2', '--json']);
    expect(revived.code, revived.stdout + revived.stderr).toBe(0);
    expect(revived.json.stoppedFrom).toBe('gone');
    expect((await w.hand(['wait', 'r2', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
  });
});
