/**
 * Rule (parley, workflow §7.4, issue 40): a quick dispatch runs no review gate and its work is
 * never merged on a forge by anyone's oversight: its brief carries the line `PARLEY DISPATCH - NO
 * REVIEW GATE RAN.`, and a landing whose brief or report carries it opens its pull request as a
 * draft (a forge merges no draft until a person marks it ready) with the line first in its body.
 * A worker can only add the marker (the safe direction); it cannot take it out of the daemon's
 * copy of its brief. gh and no-mistakes are the doubles in tests/doubles.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePrWorld } from './pr-world.ts';

const { prWorld, workerCommits, storedSnapshot } = usePrWorld();

describe('a quick dispatch opens its pull request as a draft', () => {
  it('parley: a quick dispatch skips the review gate (none initialised is no refusal), its brief carries the marker, and its PR opens as a draft naming it', async () => {
    const { w, bare, ghLog } = await prWorld('parley-draft');
    // A no-mistakes project whose gate is not initialised: a normal dispatch is refused; a quick one is not.
    expect((await w.hand(['annex', w.repo, '--posture', 'no-mistakes'])).code).toBe(0);
    const refused = await w.hand(['dispatch', 'q0', '--repo', w.repo, '--brief', w.brief('q0', 'Make the change.'), '--agent', 'mock', '--json']);
    expect(refused.json.error.code).toBe('gate-not-initialised');
    await workerCommits(w, 'q1', ['--quick']);
    const brief = readFileSync(join(w.home, 'workers', 'q1', 'brief.md'), 'utf8');
    expect(brief).toContain('## Quick dispatch\n- PARLEY DISPATCH - NO REVIEW GATE RAN.');
    expect(brief).not.toContain('no-mistakes axi run');
    const land = await w.hand(['land', 'q1', '--json']);
    expect(land.code, land.stdout + land.stderr).toBe(0);
    const approve = await w.hand(['approve', 'q1'], { timeoutMs: 90_000 });
    expect(approve.code, approve.stdout + approve.stderr).toBe(0);
    expect(approve.stdout).toMatch(/landed: pull request https:\/\/github\.com\/\S+\/pull\/\d+ opened as a draft \(a quick dispatch: no review gate ran/);
    const create = readFileSync(ghLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]).find((c) => c[0] === 'pr' && c[1] === 'create')!;
    expect(create).toContain('--draft');
    expect(create[create.indexOf('--body') + 1]).toMatch(/^PARLEY DISPATCH - NO REVIEW GATE RAN\.\n/);
    expect(execFileSync('git', ['-C', bare, 'branch', '--list', 'worktree-q1'], { encoding: 'utf8' })).toContain('worktree-q1');
    expect(storedSnapshot(w, 'q1')).toContain('"draft":true');
  });

  it('a report that carries the quick marker makes a direct-PR landing a draft too; the worker can only add the marker', async () => {
    const { w, ghLog } = await prWorld('parley-report');
    expect((await w.hand(['annex', w.repo, '--posture', 'direct-PR'])).code).toBe(0);
    await workerCommits(w, 'r1');
    const report = join(w.home, 'workers', 'r1', 'out', 'report.md');
    writeFileSync(report, `${readFileSync(report, 'utf8')}\nPARLEY DISPATCH - NO REVIEW GATE RAN.\n`);
    expect((await w.hand(['land', 'r1', '--json'])).code).toBe(0);
    expect((await w.hand(['approve', 'r1'], { timeoutMs: 90_000 })).code).toBe(0);
    const creates = readFileSync(ghLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]).filter((c) => c[0] === 'pr' && c[1] === 'create');
    // (An ordinary landing's PR is no draft: direct-pr-lands-through-the-approval.test.ts.)
    expect(creates.map((c) => [c[c.indexOf('--head') + 1], c.includes('--draft')])).toEqual([['worktree-r1', true]]);
  });
});
