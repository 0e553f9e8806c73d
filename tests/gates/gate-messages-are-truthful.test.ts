/**
 * Truthful gates: a gated dispatch says it waits for approval and that nothing was created,
 * with the brief's path and first lines; `hand approve` prints what it then created (and it
 * exists on disk and in tmux when it says so).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('gate messages', () => {
  it('a gated dispatch says nothing was created and shows the brief; approve names what it created', async () => {
    const w = await makeWorld('gate-truth');
    expect((await w.hand(['annex', w.repo, '--json'])).code).toBe(0); // no --yolo: gated
    const wt = join(w.repo, '.claude', 'worktrees', 'g1');
    const d = await w.hand(['dispatch', 'g1', '--repo', w.repo, '--brief', w.brief('g1', 'Tidy the greeting module.'), '--agent', 'mock', '--backend', 'tmux']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain('g1: waits for your approval of its brief — nothing was created yet');
    expect(d.stdout).toContain(join(w.home, 'workers', 'g1', 'brief.md'));
    expect(d.stdout).toContain('Tidy the greeting module.');
    expect(d.stdout).toContain('hand approve g1');
    expect(d.stdout).not.toMatch(/^dispatched/m);
    expect(existsSync(wt)).toBe(false);

    const j = await w.hand(['status', 'g1', '--json']);
    expect(j.json[0].gate).toBe('brief approval');

    const a = await w.hand(['approve', 'g1']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain(`created worktree ${wt}`);
    expect(a.stdout).toContain('created branch   worktree-g1');
    expect(a.stdout).toMatch(/started {10}tmux pane %\d+/);
    expect(existsSync(wt)).toBe(true);
    const branches = execFileSync('git', ['branch', '--list', 'worktree-g1'], { cwd: w.repo, encoding: 'utf8' });
    expect(branches).toContain('worktree-g1');
  });

  it('--json of a gated dispatch carries gated, created and the brief head', async () => {
    const w = await makeWorld('gate-truth-json');
    expect((await w.hand(['annex', w.repo, '--json'])).code).toBe(0);
    const d = await w.hand(['dispatch', 'g2', '--repo', w.repo, '--brief', w.brief('g2', 'Say hi.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.json).toMatchObject({ gated: true, waitingFor: 'brief approval', created: { briefDirectory: true, worktree: false, branch: false, pane: false } });
    expect((d.json.briefHead as string[]).join('\n')).toContain('Say hi.');
  });
});
