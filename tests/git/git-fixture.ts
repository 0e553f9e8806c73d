/**
 * Real git repositories in temp dirs for the io/git tests. Fixture set-up uses git directly
 * (argv arrays); the code under test goes through io/git.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { makeTempDir } from '../helpers/temp.ts';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...IDENTITY }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function commitFile(repo: string, file: string, content: string, message = `add ${file}`): string {
  mkdirSync(join(repo, file, '..'), { recursive: true });
  writeFileSync(join(repo, file), content);
  git(repo, 'add', '--', file);
  git(repo, 'commit', '-q', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

export interface Fixture {
  /** Root of everything the fixture made; removed by cleanup. */
  root: string;
  /** The main checkout (real path). */
  repo: string;
  /** Bare repository acting as origin, when asked for. */
  origin?: string;
  cleanup: () => void;
}

/** A repository on branch `branch` with one commit (or none when `empty`). */
export function makeRepo(opts: { branch?: string; empty?: boolean; label?: string } = {}): Fixture {
  const tmp = makeTempDir(opts.label ?? 'git');
  const repo = join(tmp.path, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', opts.branch ?? 'main');
  if (!opts.empty) commitFile(repo, 'README.md', 'hello\n', 'initial');
  return { root: tmp.path, repo, cleanup: tmp.cleanup };
}

/** A bare origin with `main` (one commit) and a clone of it, so origin/HEAD is set as after a real clone. */
export function makeClonedRepo(opts: { label?: string } = {}): Fixture {
  const tmp = makeTempDir(opts.label ?? 'git-clone');
  const seed = join(tmp.path, 'seed');
  const origin = join(tmp.path, 'origin.git');
  const repo = join(tmp.path, 'repo');
  mkdirSync(seed);
  git(seed, 'init', '-q', '-b', 'main');
  commitFile(seed, 'README.md', 'hello\n', 'initial');
  git(tmp.path, 'clone', '-q', '--bare', seed, origin);
  git(tmp.path, 'clone', '-q', origin, repo);
  return { root: tmp.path, repo, origin, cleanup: tmp.cleanup };
}

/** Registers an afterEach that removes every fixture passed to the returned `track`. */
export function trackFixtures(): <F extends Fixture>(f: F) => F {
  const fixtures: Fixture[] = [];
  afterEach(() => {
    while (fixtures.length) fixtures.pop()!.cleanup();
  });
  return (f) => {
    fixtures.push(f);
    return f;
  };
}
