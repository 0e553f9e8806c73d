/**
 * Rule (workflow §8.5, issue 40): `hand update` moves a kingshand checkout to its newest release
 * (the highest vX.Y.Z tag on origin, fast-forward only) and installs it, or refuses with the
 * reason and touches nothing: uncommitted changes (named), a live worker (named), a branch other
 * than main or a detached HEAD, no release tagged. A checkout that already holds the newest
 * release is already current; a release candidate tag is not a release.
 *
 * The checkout is a small git repository standing in for a kingshand checkout (its package.json
 * builds a marker file), cloned from a real bare origin; the fleet is a real daemon with a mock
 * worker for the live-worker refusal.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

function release(dir: string, version: string, subject: string, kit?: string): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'kingshand', version, private: true, scripts: { build: "node -e \"require('fs').writeFileSync('built.txt', require('./package.json').version)\"" } })}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: 'kingshand', version, lockfileVersion: 3, requires: true, packages: { '': { name: 'kingshand', version } } })}\n`);
  // What the build makes is ignored, as a kingshand checkout ignores dist/ and node_modules/.
  writeFileSync(join(dir, '.gitignore'), 'built.txt\nnode_modules/\n');
  if (kit) {
    mkdirSync(join(dir, 'hand', 'kit'), { recursive: true });
    writeFileSync(join(dir, 'hand', 'kit', 'CLAUDE.md'), kit);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', subject);
}

describe('hand update takes the newest release or refuses, touching nothing', () => {
  it('refuses on changes, a live worker, another branch, a detached HEAD; updates to the highest release; then is already current', async () => {
    const w = await makeWorld('self-update');
    const origin = join(w.root, 'origin.git');
    const upstream = join(w.root, 'upstream');
    const checkout = join(w.root, 'kingshand');
    git(w.root, 'init', '-q', '--bare', '-b', 'main', origin);
    git(w.root, 'clone', '-q', origin, upstream);
    release(upstream, '0.1.0', 'First release');
    git(upstream, 'tag', 'v0.1.0');
    git(upstream, 'push', '-q', 'origin', 'main', '--tags');
    git(w.root, 'clone', '-q', origin, checkout);
    const update = async (...extra: string[]) => {
      const r = await w.hand(['update', '--checkout', checkout, '--json', ...extra]);
      return { code: r.code, json: r.json, stderr: r.stderr };
    };
    const head = () => git(checkout, 'rev-parse', 'HEAD');

    // No release beyond the one it holds: already current.
    expect((await update()).json).toMatchObject({ status: 'already-current', ok: true, tag: 'v0.1.0', fromVersion: '0.1.0' });

    // Upstream: an older patch tag, a release candidate, and the newest release, which changes the kit.
    release(upstream, '0.1.1', 'Fix the digest');
    git(upstream, 'tag', 'v0.1.1');
    release(upstream, '0.2.0', 'Add the usage pulse', '# kit\n');
    git(upstream, 'tag', 'v0.2.0');
    release(upstream, '0.3.0-rc1', 'Try the next thing');
    git(upstream, 'tag', 'v0.3.0-rc1');
    git(upstream, 'push', '-q', 'origin', 'main', '--tags');
    const before = head();

    writeFileSync(join(checkout, 'local-notes.md'), 'mine\n');
    const dirty = await update();
    expect(dirty.code).toBe(1);
    expect(dirty.json).toMatchObject({ status: 'refused', ok: false });
    expect(dirty.json.reason).toMatch(/uncommitted changes \(local-notes\.md\).*nothing was changed/);
    execFileSync('rm', [join(checkout, 'local-notes.md')]);

    git(checkout, 'checkout', '-q', '-b', 'experiment');
    expect((await update()).json.reason).toMatch(/on branch experiment, not main/);
    git(checkout, 'checkout', '-q', '--detach');
    expect((await update()).json.reason).toMatch(/detached HEAD/);
    git(checkout, 'checkout', '-q', 'main');

    // A live worker of this fleet: an update restarts nothing under it.
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    expect((await w.hand(['dispatch', 'live1', '--repo', w.repo, '--brief', w.brief('live1', 'Say hello.'), '--agent', 'mock', '--json'])).code).toBe(0);
    expect((await w.hand(['wait', 'live1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    expect((await update()).json.reason).toMatch(/1 worker is live \(live1\)/);
    expect(head(), 'every refusal left the checkout where it was').toBe(before);
    expect((await w.hand(['stop', 'live1', '--json'])).code).toBe(0);

    const done = await update();
    expect(done.code, done.stderr).toBe(0);
    expect(done.json).toMatchObject({
      status: 'updated', ok: true, fromVersion: '0.1.0', toVersion: '0.2.0', tag: 'v0.2.0',
      changes: ['Fix the digest', 'Add the usage pulse'], installOk: true, rereadNeeded: true,
    });
    expect(head()).toBe(git(checkout, 'rev-parse', 'v0.2.0^{commit}'));
    expect(readFileSync(join(checkout, 'built.txt'), 'utf8'), 'the install step built the new release').toBe('0.2.0');
    expect(existsSync(join(checkout, 'hand', 'kit', 'CLAUDE.md'))).toBe(true);
    const text = await w.hand(['update', '--checkout', checkout]);
    expect(text.stdout).toContain('already current: 0.2.0 (release v0.2.0)');
  }, 120_000);

  it('without a release tagged, or an origin, it refuses and says so', async () => {
    const w = await makeWorld('self-update-none');
    const lone = join(w.root, 'lone');
    mkdirSync(lone);
    git(lone, 'init', '-q', '-b', 'main');
    release(lone, '0.1.0', 'Start');
    const noOrigin = await w.hand(['update', '--checkout', lone, '--json']);
    expect(noOrigin.json.reason).toMatch(/has no origin remote/);
    const origin = join(w.root, 'o.git');
    git(w.root, 'init', '-q', '--bare', '-b', 'main', origin);
    git(lone, 'remote', 'add', 'origin', origin);
    git(lone, 'push', '-q', 'origin', 'main');
    const untagged = await w.hand(['update', '--checkout', lone, '--json']);
    expect(untagged.code).toBe(1);
    expect(untagged.json.reason).toBe('no release has been tagged (vX.Y.Z) on origin; nothing was changed.');
  }, 60_000);
});
