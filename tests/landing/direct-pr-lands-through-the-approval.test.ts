/**
 * The held outward step of a direct-PR project is released by the landing approval (issue 23
 * item 3), end to end: a mock worker commits, `hand land` opens the gate, `hand approve` pushes
 * the branch to origin (a local bare repository) and opens the PR with gh (the double in
 * tests/doubles/gh, which answers `pr create` with the PR URL). The URL is printed and stored.
 * A no-mistakes-prod-only task classified internal takes the same direct-PR path.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binDir } from '../helpers/bin-dir.ts';
import { waitFor } from '../helpers/temp.ts';
import type { CliWorld } from '../cli/cli-harness.ts';
import { NM_DOUBLE, usePrWorld } from './pr-world.ts';

const { prWorld, workerCommits, storedSnapshot } = usePrWorld();

async function landsAsAPr(w: CliWorld, id: string, bare: string, ghLog: string) {
  const land = await w.hand(['land', id, '--json']);
  expect(land.code, land.stdout + land.stderr).toBe(0);
  expect(land.json).toMatchObject({ gate: 'open', evidence: { verdict: 'ready' } });
  expect(readFileSync(ghLog, 'utf8')).not.toContain('"create"'); // nothing leaves before the approval

  const approve = await w.hand(['approve', id], { timeoutMs: 90_000 });
  expect(approve.code, approve.stdout + approve.stderr).toBe(0);
  const url = /https:\/\/github\.com\/\S+\/pull\/\d+/.exec(approve.stdout)?.[0];
  expect(url, approve.stdout).toBeTruthy();
  expect(approve.stdout).toContain(`landed: pull request ${url} opened`);
  // The double recorded the PR for this branch, and origin has the branch: pushed, then opened.
  const calls = readFileSync(ghLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]);
  const create = calls.find((c) => c[0] === 'pr' && c[1] === 'create')!;
  expect(create[create.indexOf('--head') + 1]).toBe(`worktree-${id}`);
  expect(create, 'an ordinary landing opens no draft').not.toContain('--draft');
  expect(execFileSync('git', ['-C', bare, 'branch', '--list', `worktree-${id}`], { encoding: 'utf8' })).toContain(`worktree-${id}`);
  expect(storedSnapshot(w, id)).toContain(url);
}

describe('the landing approval releases the held outward step', () => {
  it('direct-PR: hand approve pushes the branch and opens the PR with gh; the PR URL is printed and stored', async () => {
    const { w, bare, ghLog } = await prWorld('direct-pr-e2e');
    expect((await w.hand(['annex', w.repo, '--posture', 'direct-PR'])).code).toBe(0);
    await workerCommits(w, 'p1');
    await landsAsAPr(w, 'p1', bare, ghLog);
  });

  it('no-mistakes-prod-only: a task classified internal takes the direct-PR path', async () => {
    const { w, bare, ghLog } = await prWorld('prod-only-internal');
    execFileSync(NM_DOUBLE, ['init'], { cwd: w.repo, env: { ...process.env, ...w.env } });
    expect((await w.hand(['annex', w.repo, '--posture', 'no-mistakes-prod-only'])).code).toBe(0);
    await workerCommits(w, 'p2', ['--task-kind', 'internal']);
    await landsAsAPr(w, 'p2', bare, ghLog);
  });

  it('no-mistakes, yolo off: hand land shows the passed gate; hand approve runs its outward step, which pushes and opens the PR', async () => {
    const { w, bare } = await prWorld('nm-outward');
    const nmLog = join(w.root, 'nm.log');
    Object.assign(w.env, { NO_MISTAKES_DOUBLE_LOG: nmLog, NO_MISTAKES_DOUBLE_DELIVERS: '1' });
    // The daemon runs the gate: it needs the variables too (started again with them, PATH still bare).
    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    await waitFor(async () => (await w.hand(['daemon', 'status', '--json'])).code === 3 || undefined, { what: 'the daemon to be gone', timeoutMs: 15_000 });
    expect((await w.hand(['daemon', 'start'], { env: { PATH: binDir(w.root, 'bin-bare2') } })).code).toBe(0);
    execFileSync(NM_DOUBLE, ['init'], { cwd: w.repo, env: { ...process.env, ...w.env } });
    expect((await w.hand(['annex', w.repo, '--posture', 'no-mistakes'])).code).toBe(0);
    await workerCommits(w, 'n1');
    // The worker ran the gate as its brief says while yolo is off: the outward step held.
    const wt = join(w.repo, '.claude', 'worktrees', 'n1');
    execFileSync(NM_DOUBLE, ['axi', 'run', '--intent', 'Make the change.', '--skip', 'push,pr,ci'], { cwd: wt, env: { ...process.env, ...w.env } });
    const state = JSON.parse(readFileSync(w.env.NO_MISTAKES_DOUBLE_STATE!, 'utf8'));
    Object.assign(state.runs.at(-1), { status: 'completed', outcome: 'passed' });
    writeFileSync(w.env.NO_MISTAKES_DOUBLE_STATE!, JSON.stringify(state));

    const land = await w.hand(['land', 'n1']);
    expect(land.code, land.stdout + land.stderr).toBe(0);
    expect(land.stdout).toContain('review gate: passed (run run-1) · approving releases its push and pull request');
    expect(execFileSync('git', ['-C', bare, 'branch', '--list', 'worktree-n1'], { encoding: 'utf8' })).toBe('');

    const approve = await w.hand(['approve', 'n1'], { timeoutMs: 90_000 });
    expect(approve.code, approve.stdout + approve.stderr).toBe(0);
    const url = /https:\/\/github\.com\/\S+\/pull\/\d+/.exec(approve.stdout)?.[0];
    expect(url, approve.stdout).toBeTruthy();
    expect(approve.stdout).toContain(`landed: pull request ${url} opened`);
    // The double saw the outward run: no --skip of push or pr.
    const runs = readFileSync(nmLog, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { argv: string[] }).argv).filter((a) => a[1] === 'run');
    expect(runs.at(-1)).toEqual(['axi', 'run', '--intent', 'Brief n1']);
    expect(execFileSync('git', ['-C', bare, 'branch', '--list', 'worktree-n1'], { encoding: 'utf8' })).toContain('worktree-n1');
    expect(storedSnapshot(w, 'n1')).toContain(url);
  });
});
