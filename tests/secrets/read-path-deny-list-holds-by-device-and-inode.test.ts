/**
 * Rule: `--read-path` applies the deny list to the file, not to the name it is passed under
 * (issue 24 item 4). A hard link to ~/.ssh/id_ed25519, ~/.claude/.credentials.json,
 * ~/.config/gh/hosts.yml and ~/.npmrc were all copied into a worker's read-first/. Refused now:
 * the same device and inode as a denied file (hard link, symlink, bind mount, /proc/self/root),
 * credential files by location, and credentials by their shape wherever they are.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateReadPaths } from '../../io/brief/read-paths.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { readPathRefusal } from './read-path-refusal.ts';

const tempDir = useTempDirs();

function world() {
  const root = realpathSync(tempDir('read-path-inode'));
  const home = join(root, 'home');
  const state = join(root, 'state');
  const elsewhere = join(root, 'elsewhere');
  for (const d of [home, state, elsewhere]) mkdirSync(d);
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  const key = put(join(home, '.ssh', 'id_ed25519'), 'not a real key, only a file in .ssh\n');
  put(join(state, 'review.token'), 'token\n');
  const ctx = { homes: [home], stateDir: state };
  const refusal = readPathRefusal(ctx);
  return { root, home, state, elsewhere, key, put, ctx, refusal };
}

describe('the read-path deny list holds by device and inode', () => {
  it('refuses a hard link to a denied key, naming the file and why', () => {
    const w = world();
    const link = join(w.elsewhere, 'notes.txt');
    linkSync(w.key, link);
    const msg = w.refusal(link);
    expect(msg).toContain(link);
    expect(msg).toMatch(/same file \(device \d+, inode \d+\) as one under .*\.ssh/);
  });

  it("refuses a hard link to kingshand's own state (the review token)", () => {
    const w = world();
    const link = join(w.elsewhere, 'harmless.md');
    linkSync(join(w.state, 'review.token'), link);
    expect(w.refusal(link)).toContain("kingshand's own state");
  });

  it('refuses a symlink and a /proc/self/root path to a denied key', () => {
    const w = world();
    const sym = join(w.elsewhere, 'readme.md');
    symlinkSync(w.key, sym);
    expect(w.refusal(sym)).toContain('.ssh');
    expect(w.refusal(`/proc/self/root${w.key}`)).toContain('.ssh');
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a file seen through a bind mount of a denied directory', () => {
    const w = world();
    const mnt = join(w.elsewhere, 'mnt');
    mkdirSync(mnt);
    execFileSync('mount', ['--bind', join(w.home, '.ssh'), mnt]);
    try {
      expect(w.refusal(join(mnt, 'id_ed25519'))).toMatch(/same file \(device \d+, inode \d+\)/);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });

  it('refuses credential files by location', () => {
    const w = world();
    for (const rel of ['.claude/.credentials.json', '.config/gh/hosts.yml', '.npmrc', '.aws/credentials', '.ssh/config', '.netrc', '.git-credentials', '.docker/config.json']) {
      const path = w.put(join(w.home, rel), 'x = 1\n');
      expect(w.refusal(path), rel).toContain(path);
    }
    expect(w.refusal(w.put(join(w.state, 'fleet.db'), 'db'))).toContain("kingshand's own state");
  });

  it('refuses a credential by its shape wherever it lives', () => {
    const w = world();
    const shapes: Record<string, string> = {
      'a PEM private key': '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n',
      'a GitHub token': `github.com:\n    oauth_token: gho_${'a'.repeat(36)}\n`,
      'ghp_': `token=ghp_${'B'.repeat(36)}\n`,
      'an npm token': `//registry.npmjs.org/:_authToken=npm_${'c'.repeat(36)}\n`,
      'an AWS access key': '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n',
      'an OAuth token': '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-abcdefghijklmnopqrstuvwxyz"}}\n',
    };
    for (const [name, text] of Object.entries(shapes)) {
      const path = w.put(join(w.elsewhere, `${name.replace(/\W+/g, '-')}.txt`), text);
      const msg = w.refusal(path);
      expect(msg, name).toContain(path);
      expect(msg, name).toContain('looks like');
    }
  });

  it('hands over an ordinary file', () => {
    const w = world();
    const spec = w.put(join(w.elsewhere, 'spec.md'), '# Spec\n\nThe npm package and the AWS region are named here, no keys.\n');
    expect(validateReadPaths([spec], w.ctx)).toEqual([{ source: spec, leaf: 'spec.md' }]);
  });
});
