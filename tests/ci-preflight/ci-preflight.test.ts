/**
 * CI preflight on each kind of repository workflow §5.1 lists. Real git repositories; GitHub's
 * answers come from the gh double (tests/doubles/gh), because gh cannot reach GitHub here.
 * Rule under test throughout: a failed lookup is "unknown", never no-ci or has-ci.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ciBriefLine, ciPreflight, githubSlug, workflowTriggers } from '../../io/git/ci-preflight.ts';
import { GIT_TEST_ENV, makeTestRepo } from '../helpers/git-repo.ts';
import { makeTempDir } from '../helpers/temp.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');
let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function world(origin: string | null, ghState?: unknown) {
  const tmp = makeTempDir('ci');
  cleanups.push(tmp.cleanup);
  const repo = join(tmp.path, 'repo');
  makeTestRepo(repo, '# ci\n');
  if (origin) execFileSync('git', ['remote', 'add', 'origin', origin], { cwd: repo });
  const bin = join(tmp.path, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  if (ghState !== undefined) symlinkSync(GH_DOUBLE, join(bin, 'gh'));
  const stateFile = join(tmp.path, 'gh-state.json');
  writeFileSync(stateFile, JSON.stringify(ghState ?? {}));
  const env = { PATH: `${bin}:/usr/bin:/bin`, GH_DOUBLE_STATE: stateFile, HOME: tmp.path };
  /** Writes and commits a file: the preflight reads committed CI configuration only. */
  const file = (rel: string, text: string) => {
    mkdirSync(join(repo, rel, '..'), { recursive: true });
    writeFileSync(join(repo, rel), text);
    execFileSync('git', ['add', rel], { cwd: repo });
    execFileSync('git', ['commit', '-q', '-m', `add ${rel}`], { cwd: repo, env: GIT_TEST_ENV });
  };
  return { repo, env, file, tmp: tmp.path };
}

const GH = 'https://github.com/acme/shop.git';
const repoState = (over: Record<string, unknown>) => ({ repos: { 'acme/shop': { defaultBranch: 'main', commits: ['a1', 'b2', 'c3'], ...over } } });

describe('CI preflight', () => {
  it('no such path and not a repository are unknown', async () => {
    const w = world(null);
    expect(await ciPreflight(join(w.tmp, 'nope'), w.env)).toMatchObject({ status: 'unknown', signal: 'no-such-path' });
    mkdirSync(join(w.tmp, 'plain'));
    expect(await ciPreflight(join(w.tmp, 'plain'), w.env)).toMatchObject({ status: 'unknown', signal: 'not-a-repo' });
  });

  it('a workflow triggered by pull_request is has-ci from config; schedule-only does not count', async () => {
    const w = world(GH, repoState({ checkRuns: {}, statuses: {} }));
    w.file('.github/workflows/nightly.yml', 'on:\n  schedule:\n    - cron: "0 3 * * *"\n  workflow_dispatch:\n');
    expect(await ciPreflight(w.repo, w.env)).toMatchObject({ status: 'no-ci', signal: 'none-reported' });
    w.file('.github/workflows/ci.yml', 'name: ci\non:\n  pull_request:\n    branches: [main]\n');
    const r = await ciPreflight(w.repo, w.env);
    expect(r).toMatchObject({ status: 'has-ci', signal: 'ci-config' });
    expect(r.detail).toContain('.github/workflows/ci.yml');
    expect(r.detail).not.toContain('nightly');
  });

  it('a workflow whose on: cannot be read is kept (unreadable is not absence)', async () => {
    const w = world(GH, repoState({}));
    w.file('.github/workflows/odd.yaml', 'jobs:\n  build:\n    runs-on: x\n');
    expect(await ciPreflight(w.repo, w.env)).toMatchObject({ status: 'has-ci', signal: 'ci-config' });
  });

  it("another provider's file counts only off GitHub", async () => {
    const gl = world('git@gitlab.com:acme/shop.git');
    gl.file('.gitlab-ci.yml', 'test:\n  script: [true]\n');
    expect(await ciPreflight(gl.repo, gl.env)).toMatchObject({ status: 'has-ci', signal: 'ci-config' });
    const gh = world(GH, repoState({ checkRuns: { a1: 0, b2: 0 }, statuses: {} }));
    gh.file('.gitlab-ci.yml', 'test:\n  script: [true]\n');
    expect(await ciPreflight(gh.repo, gh.env)).toMatchObject({ status: 'no-ci', signal: 'none-reported' });
  });

  it('no origin is no-ci (a settled fact); a non-GitHub origin without config is unknown', async () => {
    expect(await ciPreflight(world(null).repo, world(null).env)).toMatchObject({ status: 'no-ci', signal: 'no-remote' });
    const w = world('https://git.example.com/acme/shop.git');
    expect(await ciPreflight(w.repo, w.env)).toMatchObject({ status: 'unknown', signal: 'remote-not-github' });
  });

  it('gh missing, a failed or empty default-branch lookup, or failed commit listing are unknown — never no-ci', async () => {
    const noGh = world(GH);
    const r = await ciPreflight(noGh.repo, noGh.env);
    expect(r).toMatchObject({ status: 'unknown', signal: 'lookup-failed' });
    expect(r.detail).toContain('gh was not found');
    const failing = world(GH, { ...repoState({}), fail: { 'repos/acme/shop': 'HTTP 401: Bad credentials' } });
    expect((await ciPreflight(failing.repo, failing.env)).detail).toContain('Bad credentials');
    const empty = world(GH, repoState({ defaultBranch: '' }));
    expect(await ciPreflight(empty.repo, empty.env)).toMatchObject({ status: 'unknown', signal: 'lookup-failed' });
    const listing = world(GH, { ...repoState({}), fail: { 'commits?sha': 'HTTP 502' } });
    expect(await ciPreflight(listing.repo, listing.env)).toMatchObject({ status: 'unknown', signal: 'lookup-failed' });
  });

  it('no commits is unknown; checks on a recent commit are has-ci; answered zeros are no-ci; only garbage is unknown', async () => {
    const none = world(GH, repoState({ commits: [] }));
    expect(await ciPreflight(none.repo, none.env)).toMatchObject({ status: 'unknown', signal: 'no-commits' });
    const checks = world(GH, repoState({ checkRuns: { b2: 3 }, statuses: { b2: 1 } }));
    expect(await ciPreflight(checks.repo, checks.env)).toMatchObject({ status: 'has-ci', signal: 'checks-reported', checksFound: 4, branch: 'main' });
    const zeros = world(GH, repoState({ checkRuns: { a1: 0, b2: 0, c3: 0 }, statuses: { a1: 0, b2: 0, c3: 0 } }));
    expect(await ciPreflight(zeros.repo, zeros.env)).toMatchObject({ status: 'no-ci', signal: 'none-reported' });
    const garbage = world(GH, { ...repoState({ checkRuns: { a1: 'oops', b2: 'oops', c3: 'oops' }, statuses: { a1: 'x', b2: 'x', c3: 'x' } }) });
    expect(await ciPreflight(garbage.repo, garbage.env)).toMatchObject({ status: 'unknown', signal: 'lookup-failed' });
  });

  it('an uncommitted workflow reports on nothing: only committed configuration counts', async () => {
    const w = world(GH, repoState({ checkRuns: { a1: 0 }, statuses: { a1: 0 } }));
    mkdirSync(join(w.repo, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(w.repo, '.github', 'workflows', 'ci.yml'), 'on: [pull_request]\n');
    expect(await ciPreflight(w.repo, w.env)).toMatchObject({ status: 'no-ci', configFiles: [] });
  });

  it('the brief line: has-ci drives to green; no-ci and unknown share the terminating line', () => {
    expect(ciBriefLine('has-ci')).toMatch(/once CI is first green.*Do not merge/);
    expect(ciBriefLine('no-ci')).toBe(ciBriefLine('unknown'));
    expect(ciBriefLine('unknown')).toMatch(/fifteen minutes.*no checks were reported.*Do not merge/);
  });

  it('trigger reading: inline, list, block with nested keys, quoted and YAML 1.1 true keys', () => {
    expect(workflowTriggers('on: push\n')).toEqual(['push']);
    expect(workflowTriggers('on: [push, pull_request]\n')).toEqual(['push', 'pull_request']);
    expect(workflowTriggers("'on':\n  push:\n    branches: [main]\n  # c\n  schedule:\njobs:\n")).toEqual(['push', 'schedule']);
    expect(workflowTriggers('true:\n  - workflow_call\n')).toEqual(['workflow_call']);
    expect(workflowTriggers('name: x\n')).toBeNull();
    expect(githubSlug('git@github.com:acme/shop.git')).toBe('acme/shop');
    expect(githubSlug('https://gitlab.com/acme/shop')).toBeNull();
  });
});
