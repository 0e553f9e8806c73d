/**
 * Landing through both gates, end to end: the brief is approved (`hand approve` at brief
 * approval), a mock worker really commits in its worktree (its Bash permission answered with one
 * key), reports, and `hand land` opens the landing gate in the worker's machine; `hand approve`
 * fast-forwards the base branch of a local-only project and the worker ends `landed`, its
 * worktree removed. A commit with an attribution trailer is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

async function workerCommits(w: CliWorld, id: string, command: string): Promise<string> {
  const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Make the change.'), '--agent', 'mock', '--json'], { env: { KH_MOCK_RUN_BASH: '1' } });
  expect(d.code, d.stderr).toBe(0);
  expect(d.json.stage).toBe('gate.awaitingBriefApproval');
  const approved = await w.hand(['approve', id, '--json']);
  expect(approved.code, approved.stderr).toBe(0);
  expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
  expect((await w.hand(['send', id, `MODE:bash[[${command}]]`])).code).toBe(0);
  const perm = await w.hand(['wait', id, '--until', 'blocked', '--timeout', '30s', '--json']);
  expect(perm.json.blockedReason).toBe('permission');
  expect((await w.hand(['keys', id, 'enter'])).code).toBe(0);
  expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
  expect((await w.hand(['send', id, `MODE:report ${d.json.reportPath}`])).code).toBe(0);
  expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
  return d.json.branch as string;
}

const log = (repo: string, ref: string) => execFileSync('git', ['-C', repo, 'log', '--format=%s', ref], { encoding: 'utf8' });

describe('landing gate (local-only)', () => {
  it("lands a mock worker's commit by fast-forward after hand approve", async () => {
    world = await makeCliWorld('cli-land');
    const w = world;
    await w.hand(['annex', w.repo, '--posture', 'local-only']);
    const branch = await workerCommits(w, 'w1', 'echo feature > feature.txt && git add feature.txt && git commit -q -m "Add the feature file"');
    expect(log(w.repo, branch)).toContain('Add the feature file');
    expect(log(w.repo, 'main')).not.toContain('Add the feature file');

    const land = await w.hand(['land', 'w1', '--json']);
    expect(land.code, land.stderr).toBe(0);
    expect(land.json).toMatchObject({ gate: 'open', stage: 'landing.awaitingApproval', evidence: { verdict: 'ready', base: 'main' } });
    expect(land.json.evidence.diffStat).toContain('feature.txt');
    expect((await w.hand(['status', 'w1', '--json'])).json[0]).toMatchObject({ stage: 'landing.awaitingApproval', gate: 'landing approval' });
    expect(log(w.repo, 'main')).not.toContain('Add the feature file'); // nothing lands before approval

    const approve = await w.hand(['approve', 'w1', '--json'], { timeoutMs: 90_000 });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.json).toMatchObject({ gate: 'approved', stage: 'landed', landed: { target: 'main' }, teardown: { done: true } });
    expect(log(w.repo, 'main')).toContain('Add the feature file');
    expect(existsSync(join(w.repo, '.claude', 'worktrees', 'w1'))).toBe(false);
    expect((await w.hand(['status', 'w1', '--json'])).json[0]).toMatchObject({ stage: 'landed', gate: null });
  });

  it('hand approve of a landing prints prose in text mode, never raw JSON', async () => {
    world = await makeCliWorld('cli-land-text');
    const w = world;
    await w.hand(['annex', w.repo, '--posture', 'local-only']);
    await workerCommits(w, 'w3', 'echo t > t.txt && git add t.txt && git commit -q -m "Add t"');
    expect((await w.hand(['land', 'w3'])).code).toBe(0);
    const approve = await w.hand(['approve', 'w3'], { timeoutMs: 90_000 });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toMatch(/^w3: approved · landed: main fast-forwarded from [0-9a-f]{7,} to [0-9a-f]{7,} \(merge --ff-only\)/m);
    expect(approve.stdout).toContain('worktree and pane removed');
    expect(approve.stdout).not.toMatch(/[{}]|"\w+":/);
    expect(log(w.repo, 'main')).toContain('Add t');
  });

  it('refuses to land commits that carry an attribution trailer', async () => {
    world = await makeCliWorld('cli-land-attr');
    const w = world;
    await w.hand(['annex', w.repo, '--posture', 'local-only']);
    await workerCommits(w, 'w2', 'echo x > x.txt && git add x.txt && git commit -q -m "Add x" -m "Co-Authored-By: Claude <noreply@anthropic.com>"');
    const land = await w.hand(['land', 'w2', '--json']);
    expect(land.code).toBe(1);
    expect(JSON.stringify(land.json)).toMatch(/attribution/i);
    expect(log(w.repo, 'main')).not.toContain('Add x');
  });
});
