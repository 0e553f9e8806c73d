/**
 * A far host for `hand` tests: the real sshd and second account of sshd.ts, the mock agent
 * installed there (far-side-tmux.ts), the `shop` repository checked out in that account's HOME,
 * and — given a CLI world — the host added with its known key, checked (which learns its state
 * directory) and the world's project placed on it as its default host.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { installFarMock } from './far-side-tmux.ts';
import { startTestSshd, type TestSshd } from './sshd.ts';

export interface FarShop {
  sshd: TestSshd;
  /** The checkout on the far side. */
  repo: string;
  /** A worker's brief directory there. */
  workerDir(id: string): string;
}

export async function startFarShop(): Promise<FarShop> {
  const sshd = await startTestSshd();
  installFarMock(sshd);
  const repo = join(sshd.home, 'src', 'shop');
  makeTestRepo(repo, '# the shop, on the far host\n');
  execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, join(sshd.home, 'src')]);
  return { sshd, repo, workerDir: (id) => join(sshd.home, '.kingshand', 'workers', id) };
}

/** `hand host add far …` with the key, `hand host check far` (no claude there: not ok, but the state directory is learnt). */
export async function addFarHost(w: CliWorld, far: FarShop): Promise<void> {
  const { sshd } = far;
  const added = await w.hand(['host', 'add', 'far', `${sshd.user}@127.0.0.1`, '--port', String(sshd.port), '--identity', sshd.identityFile, '--known-hosts', sshd.knownHostsFile, '--json']);
  expect(added.code, added.stderr).toBe(0);
  const checked = await w.hand(['host', 'check', 'far', '--json']);
  expect(checked.json.facts.find((f: { what: string }) => f.what === 'state-dir')).toMatchObject({ answer: 'yes' });
}

/** The world's repo annexed as `shop` (yolo, posture edits: a far worker has no kingshand sandbox, so off is refused) and placed on the far host as its default. */
export async function placeShopOnFar(w: CliWorld, far: FarShop): Promise<void> {
  for (const args of [['annex', w.repo, '--name', 'shop', '--yolo', '--permissions', 'edits'], ['project', 'host', 'shop', 'far', far.repo, '--default']]) {
    const r = await w.hand([...args, '--json']);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
}

/** git as root on the far account's checkout: ownership differs, so it is named safe for this call only. */
export function farGit(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-c', `safe.directory=${repo}`, '-C', repo, ...args], { encoding: 'utf8' });
}
