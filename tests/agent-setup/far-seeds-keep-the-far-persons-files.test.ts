/**
 * Each agent's seed on another host (its profile's farSeed) goes through the host's files only:
 * read back, merged here, written there. The far person's bytes are kept; a file kingshand will
 * not rewrite is refused naming the host and the file, and a refusal writes nothing at all. Here
 * the "host" is a directory and its files are real files (the ssh side of it — 0600, temp file and
 * rename, a symlink written through — is io/ssh/remote-files.ts, run for real in
 * tests/ssh/a-real-claude-worker-runs-on-a-far-host.test.ts); git is a real repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentProfile, type FarSeedContext } from '../../io/agent/profiles/index.ts';
import { useWorkerPlaces } from '../helpers/worker-places.ts';

const places = useWorkerPlaces('far-seed');
let ctx: (agent: string) => FarSeedContext;
let writes: string[];
let home: string;
let worktree: string;
let briefDir: string;
beforeEach(() => {
  ({ home, worktree, briefDir } = places());
  writes = [];
  ctx = () => ({
    host: 'build',
    worktree,
    briefDir,
    reportDir: join(briefDir, 'out'),
    home,
    stateDir: join(home, '.kingshand'),
    env: { HOME: home, PATH: '/usr/bin:/bin' },
    posture: 'ask',
    files: {
      read: async (p) => (existsSync(p) ? readFileSync(p, 'utf8') : null),
      readUntrusted: async (p) => (existsSync(p) ? readFileSync(p, 'utf8') : null),
      write: async (p, text) => {
        writes.push(p);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, text);
      },
      writeOwn: async (p, text) => {
        writes.push(p);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, text);
      },
      realDir: async (p) => realpathSync(p),
    },
  });
});

const seed = (agent: string) => agentProfile(agent).farSeed(ctx(agent));

describe("Codex CLI's far seed: trust in the far account's config.toml", () => {
  it("keeps every byte of the far person's file and adds the worktree's trust once", async () => {
    const config = join(home, '.codex', 'config.toml');
    mkdirSync(dirname(config));
    const theirs = '# mine\nmodel = "o9"\n\n[projects."/srv/other"]\ntrust_level = "untrusted"\n';
    writeFileSync(config, theirs);
    await seed('codex');
    expect(readFileSync(config, 'utf8')).toBe(`${theirs}\n[projects.${JSON.stringify(realpathSync(worktree))}]\ntrust_level = "trusted"\n`);
    expect(writes).toEqual([config]);
    await seed('codex');
    expect(writes, 'already trusted: nothing written again').toEqual([config]);
  });

  it('a shape it will not rewrite is refused naming the host and the file, and nothing is written', async () => {
    const config = join(home, '.codex', 'config.toml');
    mkdirSync(dirname(config));
    writeFileSync(config, 'projects = { "/x" = { trust_level = "trusted" } }\n');
    await expect(seed('codex')).rejects.toThrow(`build:${config} holds projects as an inline table`);
    expect(writes).toEqual([]);
  });
});

describe("Gemini CLI's far seed: settings, deny policy and trust", () => {
  it("adds exactly the worktree and the brief directory to the far person's trust file, writes settings and the policy there, no hooks", async () => {
    const trust = join(home, '.gemini', 'trustedFolders.json');
    mkdirSync(dirname(trust));
    writeFileSync(trust, JSON.stringify({ '/srv/theirs': 'DO_NOT_TRUST' }));
    await seed('gemini');
    expect(JSON.parse(readFileSync(trust, 'utf8'))).toEqual({ '/srv/theirs': 'DO_NOT_TRUST', [realpathSync(worktree)]: 'TRUST_FOLDER', [realpathSync(briefDir)]: 'TRUST_FOLDER' });
    const settings = JSON.parse(readFileSync(join(worktree, '.gemini', 'settings.json'), 'utf8'));
    expect(settings).toMatchObject({ context: { includeDirectories: [briefDir] }, policyPaths: [join(briefDir, 'gemini-deny-policy.toml')] });
    expect(settings.hooks).toBeUndefined();
    // Kept out of git status, so the worktree stays removable.
    expect(execFileSync('git', ['-C', worktree, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('');
  });

  it("a DO_NOT_TRUST for the worktree is the far person's word: refused naming the host, and nothing is written", async () => {
    const trust = join(home, '.gemini', 'trustedFolders.json');
    mkdirSync(dirname(trust));
    writeFileSync(trust, JSON.stringify({ [realpathSync(worktree)]: 'DO_NOT_TRUST' }));
    await expect(seed('gemini')).rejects.toThrow(`build:${trust} says DO_NOT_TRUST for ${realpathSync(worktree)}`);
    expect(writes).toEqual([]);
  });
});

describe("Claude Code's far seed", () => {
  it("a far ~/.claude.json that is not a JSON object is refused naming the host, and nothing is written", async () => {
    writeFileSync(join(home, '.claude.json'), '{ not json');
    await expect(seed('claude')).rejects.toThrow(`build:${join(home, '.claude.json')} does not hold a JSON object`);
    expect(writes).toEqual([]);
  });
});
