import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { isFolderTrusted } from '../../mock-agent/trust.ts';
import { RefusedError } from '../../contract/errors.ts';
import { scratchDirs } from './scratch.ts';

const tempDir = scratchDirs('home');

/** A temp HOME with a ~/.claude.json like a real one, and a worktree to trust. */
function home(config?: unknown) {
  const root = tempDir();
  const worktree = join(root, 'repo', '.claude', 'worktrees', 'T-1');
  mkdirSync(worktree, { recursive: true });
  const claudeJsonPath = join(root, '.claude.json');
  if (config !== undefined) writeFileSync(claudeJsonPath, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return { home: root, worktree, claudeJsonPath };
}

const realistic = () => ({
  numStartups: 12,
  userID: 'abc123',
  hasCompletedOnboarding: true,
  customApiKeyResponses: { approved: ['x'.repeat(20)], rejected: [] },
  projects: {
    'D:/code': { hasTrustDialogAccepted: true, allowedTools: [] },
    'd:/code': { hasTrustDialogAccepted: false, history: ['one'] },
    '/srv/App': { hasTrustDialogAccepted: true },
    '/srv/app': { hasTrustDialogAccepted: false },
  },
  tipsHistory: { 'new-user-warmup': 1 },
});

const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, any>;
const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.includes('kingshand') || n.endsWith('.lock'));

describe('folder trust seeding in ~/.claude.json', () => {
  it('grants the exact real path and keeps every other key, including keys differing only in case', async () => {
    const h = home(realistic());
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('seeded');
    const after = read(h.claudeJsonPath);
    const expected = realistic() as Record<string, any>;
    expected.projects[h.worktree] = { hasTrustDialogAccepted: true };
    expect(after).toEqual(expected);
    expect(Object.keys(after.projects)).toEqual(['D:/code', 'd:/code', '/srv/App', '/srv/app', h.worktree]);
    expect(isFolderTrusted(h.home, h.worktree)).toBe(true); // what the mock agent (and Claude Code) look up
    expect(leftovers(h.home)).toEqual([]);
  });

  it('uses the real path when the worktree is reached through a symlink (a parent grant would not count)', async () => {
    const h = home(realistic());
    const link = join(h.home, 'link-to-worktree');
    symlinkSync(h.worktree, link);
    await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: link });
    const projects = read(h.claudeJsonPath).projects;
    expect(projects[h.worktree]).toEqual({ hasTrustDialogAccepted: true });
    expect(projects[link]).toBeUndefined();
  });

  it('is idempotent: a second seed reports already and leaves the file byte for byte', async () => {
    const h = home(realistic());
    await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree });
    const bytes = readFileSync(h.claudeJsonPath, 'utf8');
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('already');
    expect(readFileSync(h.claudeJsonPath, 'utf8')).toBe(bytes);
  });

  it('flips an entry Claude Code recorded as untrusted and keeps its other fields', async () => {
    const h = home({ projects: {} });
    writeFileSync(h.claudeJsonPath, JSON.stringify({ projects: { [h.worktree]: { hasTrustDialogAccepted: false, allowedTools: ['Bash'], lastCost: 0.5 } } }));
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('seeded');
    expect(read(h.claudeJsonPath).projects[h.worktree]).toEqual({ hasTrustDialogAccepted: true, allowedTools: ['Bash'], lastCost: 0.5 });
  });

  it('never invents the file: no ~/.claude.json reports no-config and creates nothing', async () => {
    const h = home();
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('no-config');
    expect(existsSync(h.claudeJsonPath)).toBe(false);
    expect(leftovers(h.home)).toEqual([]);
  });

  it('adds the projects map to a config that has none, keeping the rest', async () => {
    const h = home({ hasCompletedOnboarding: true, theme: 'dark' });
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('seeded');
    expect(read(h.claudeJsonPath)).toEqual({ hasCompletedOnboarding: true, theme: 'dark', projects: { [h.worktree]: { hasTrustDialogAccepted: true } } });
  });

  it.each([
    ['malformed JSON', '{"projects": {"/a": {"hasTrustDialogAccepted": true},}'],
    ['a top-level array', '[1, 2]'],
    ['a projects value that is not an object', '{"projects": ["oops"]}'],
  ])('refuses %s and leaves the file untouched', async (_name, text) => {
    const h = home(text);
    const err = await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as RefusedError).code).toBe('claude-config-malformed');
    expect((err as Error).message).toContain(h.claudeJsonPath);
    expect(readFileSync(h.claudeJsonPath, 'utf8')).toBe(text);
    expect(leftovers(h.home)).toEqual([]);
  });

  it("keeps the file's permissions and writes through a symlinked config instead of replacing the link", async () => {
    const h = home();
    const dotfiles = join(h.home, 'dotfiles');
    mkdirSync(dotfiles);
    const target = join(dotfiles, 'claude.json');
    writeFileSync(target, JSON.stringify(realistic()));
    chmodSync(target, 0o600);
    symlinkSync(target, h.claudeJsonPath);
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('seeded');
    expect(lstatSync(h.claudeJsonPath).isSymbolicLink()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(read(target).projects[h.worktree]).toEqual({ hasTrustDialogAccepted: true });
  });

  it("takes turns with Claude Code's own lock on the file", async () => {
    const h = home(realistic());
    const lock = `${h.claudeJsonPath}.lock`;
    mkdirSync(lock); // a starting Claude Code holds it
    const before = readFileSync(h.claudeJsonPath, 'utf8');
    const pending = seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree });
    // Without the lock the whole edit would already have happened synchronously inside the call.
    expect(readFileSync(h.claudeJsonPath, 'utf8')).toBe(before);
    rmSync(lock, { recursive: true });
    expect(await pending).toBe('seeded');
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks a stale lock left by a dead writer, and refuses when a live lock outlasts the bound', async () => {
    const h = home(realistic());
    const lock = `${h.claudeJsonPath}.lock`;
    mkdirSync(lock);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    expect(await seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: h.worktree })).toBe('seeded');

    const other = home(realistic());
    mkdirSync(`${other.claudeJsonPath}.lock`);
    const err = await seedTrust({ claudeJsonPath: other.claudeJsonPath, worktree: other.worktree, lockTimeoutMs: 200 }).catch((e: unknown) => e);
    expect((err as RefusedError).code).toBe('claude-config-locked');
    expect(read(other.claudeJsonPath)).toEqual(realistic());
  });

  it('refuses a worktree that does not exist', async () => {
    const h = home(realistic());
    await expect(seedTrust({ claudeJsonPath: h.claudeJsonPath, worktree: join(h.home, 'missing') })).rejects.toThrow(/does not exist/);
  });
});
