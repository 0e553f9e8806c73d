/**
 * The dispatch gate end to end, through the real CLI and daemon: on a project that is not yolo a
 * dispatch stages the brief and waits at brief approval with nothing else created — no worktree
 * directory, no branch, no tmux pane. `hand approve` makes the worker and it runs; `hand reject`
 * ends it `rejected` with the reason, still with nothing created, and the revised brief can be
 * dispatched again under the same id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

/** Everything a dispatch would make beyond the brief directory; empty = nothing was created. */
function created(w: CliWorld, id: string): string[] {
  const found: string[] = [];
  if (existsSync(join(w.repo, '.claude', 'worktrees', id))) found.push('worktree directory');
  if (execFileSync('git', ['-C', w.repo, 'branch', '--list', `worktree-${id}`], { encoding: 'utf8' }).trim() !== '') found.push(`branch worktree-${id}`);
  const sock = join(w.home, 'tmux.sock');
  if (existsSync(sock)) {
    let windows = '';
    try {
      windows = execFileSync('tmux', ['-S', sock, 'list-panes', '-a', '-F', '#{session_name}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      windows = ''; // no server running: no window either
    }
    if (windows.split('\n').includes(id)) found.push(`tmux pane ${id}`);
  }
  return found;
}

describe('the dispatch gate (brief approval) on a project that is not yolo', () => {
  it('waits at brief approval with nothing created; hand approve makes the worker and it runs', async () => {
    world = await makeCliWorld('cli-brief-gate');
    const w = world;
    expect((await w.hand(['annex', w.repo, '--posture', 'local-only'])).code).toBe(0);
    const d = await w.hand(['dispatch', 'g1', '--repo', w.repo, '--brief', w.brief('g1', 'Do the thing.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.json.stage).toBe('gate.awaitingBriefApproval');
    expect(readFileSync(d.json.briefPath, 'utf8')).toContain('Do the thing.'); // the brief being approved
    expect(created(w, 'g1')).toEqual([]);
    const status = await w.hand(['status', 'g1', '--json']);
    expect(status.json[0]).toMatchObject({ stage: 'gate.awaitingBriefApproval', gate: 'brief approval' });

    const approved = await w.hand(['approve', 'g1', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json.gate).toBe('brief-approved');
    const settled = await w.hand(['wait', 'g1', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(created(w, 'g1')).toEqual(['worktree directory', 'branch worktree-g1', 'tmux pane g1']);
    expect((await w.hand(['status', 'g1', '--json'])).json[0].gate).toBe(null);
    // No gate is open now: approve again is refused, naming the stage.
    const again = await w.hand(['approve', 'g1', '--json']);
    expect(again.code).toBe(1);
    expect(again.stderr + again.stdout).toMatch(/no open gate/);
    expect((await w.hand(['stop', 'g1'])).code).toBe(0);
  });

  it('hand reject ends the worker rejected with its reason and nothing created; the revised brief is dispatched again', async () => {
    world = await makeCliWorld('cli-brief-reject');
    const w = world;
    expect((await w.hand(['annex', w.repo])).code).toBe(0);
    const d = await w.hand(['dispatch', 'g2', '--repo', w.repo, '--brief', w.brief('g2', 'Rewrite everything.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    const rejected = await w.hand(['reject', 'g2', '--reason', 'too broad: touch only the parser', '--json']);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.json).toMatchObject({ gate: 'rejected', stage: 'rejected' });
    const row = (await w.hand(['status', 'g2', '--json'])).json[0];
    expect(row).toMatchObject({ stage: 'rejected', gate: null, rejection: 'brief: too broad: touch only the parser' });
    expect(existsSync(d.json.briefPath)).toBe(true);
    expect(created(w, 'g2')).toEqual([]);

    const again = await w.hand(['dispatch', 'g2', '--repo', w.repo, '--brief', w.brief('g2', 'Fix the parser only.'), '--agent', 'mock', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.stage).toBe('gate.awaitingBriefApproval');
    expect(readFileSync(again.json.briefPath, 'utf8')).toContain('Fix the parser only.');
    expect(created(w, 'g2')).toEqual([]);
  });
});
