/**
 * Agent-settings files are read from a commit's tree, never the worktree or the index
 * (io/git/agent-settings-tree.ts), so whatever hides a committed file from `git status` — skip-
 * worktree, assume-unchanged, a sparse checkout, .gitignore with `add -f` — does not hide it from
 * what lands. Links, submodules, a root spelled in another case, a file over the size cap and a
 * directory past the listing cap are each reported as what they are ("present, unreadable"),
 * never as nothing. Real git repositories.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { landingAgentSettings, readAgentSettingsAt } from '../../io/agent/project-settings/index.ts';
import { SHOWN_CHANGES } from '../../contract/methods/agent-settings.ts';
import { BLOB_CAP_BYTES, TREE_ENTRY_CAP } from '../../io/git/agent-settings-tree.ts';
import { git, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { execFileSync } from 'node:child_process';

const track = trackFixtures();
const HOOK = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'id' }] }] } });

function write(repo: string, path: string, text: string): void {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
}

const paths = async (repo: string) => (await readAgentSettingsAt(repo, git(repo, 'rev-parse', 'HEAD'))).map((r) => `${r.path} ${r.state}`);

describe('index tricks cannot hide an agent-settings file', () => {
  it('skip-worktree, assume-unchanged, sparse checkout and .gitignore + add -f: git status is clean, the commit still carries the file', async () => {
    const fx = track(makeRepo({ label: 'as-tricks' }));
    const r = fx.repo;
    write(r, '.gitignore', '.mcp.json\n.codex/\n');
    write(r, '.claude/settings.json', HOOK);
    write(r, '.gemini/settings.json', HOOK);
    write(r, '.mcp.json', '{"mcpServers":{"x":{"command":"id"}}}');
    write(r, '.codex/config.toml', '[mcp_servers.x]\ncommand = "id"\n');
    git(r, 'add', '.gitignore', '.claude/settings.json', '.gemini/settings.json');
    git(r, 'add', '-f', '.mcp.json', '.codex/config.toml');
    git(r, 'commit', '-q', '-m', 'settings');
    // skip-worktree and assume-unchanged, then the files changed or gone from the worktree
    git(r, 'update-index', '--skip-worktree', '--', '.claude/settings.json');
    rmSync(join(r, '.claude', 'settings.json'));
    git(r, 'update-index', '--assume-unchanged', '--', '.gemini/settings.json');
    writeFileSync(join(r, '.gemini', 'settings.json'), '{}');
    expect(git(r, 'status', '--porcelain')).toBe('');
    expect(await paths(r)).toEqual(['.claude/settings.json present', '.codex/config.toml present', '.gemini/settings.json present', '.mcp.json present']);
    const read = await readAgentSettingsAt(r, 'HEAD');
    expect(read.find((f) => f.path === '.claude/settings.json')!.summary).toBe('runs 1 hook (SessionStart: "id")');

    // A sparse checkout that leaves the directories out of the worktree altogether.
    git(r, 'update-index', '--no-skip-worktree', '--', '.claude/settings.json');
    git(r, 'update-index', '--no-assume-unchanged', '--', '.gemini/settings.json');
    git(r, 'checkout', '-q', '--', '.');
    git(r, 'sparse-checkout', 'set', '--no-cone', '/README.md');
    expect(git(r, 'status', '--porcelain')).toBe('');
    expect(await paths(r)).toHaveLength(4);
  });

  it('a root spelled in another case, a link, a submodule and a file over the cap are each "present, unreadable" or read, never nothing', async () => {
    const fx = track(makeRepo({ label: 'as-odd' }));
    const r = fx.repo;
    write(r, '.Claude/settings.json', HOOK); // a case-insensitive file system (a far macOS host) reads this as .claude/
    symlinkSync('docs/hooks.json', join(r, '.mcp.json'));
    write(r, '.gemini/settings.json', `{"pad":"${'x'.repeat(BLOB_CAP_BYTES)}"}`);
    git(r, 'add', '-A');
    const sub = git(r, 'rev-parse', 'HEAD');
    git(r, 'update-index', '--add', '--cacheinfo', `160000,${sub},.codex`);
    git(r, 'commit', '-q', '-m', 'odd settings');
    const read = Object.fromEntries((await readAgentSettingsAt(r, 'HEAD')).map((f) => [f.path, f]));
    expect(read['.Claude/settings.json']).toMatchObject({ state: 'present', agents: ['Claude Code'], summary: 'runs 1 hook (SessionStart: "id")' });
    expect(read['.mcp.json']).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('a symbolic link to "docs/hooks.json"') });
    expect(read['.gemini/settings.json']).toMatchObject({ state: 'unreadable', reason: expect.stringContaining(`over the ${BLOB_CAP_BYTES}-byte cap`) });
    expect(read['.codex']).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('a submodule') });
  });

  it('more files under a directory than the listing cap: the directory is one unreadable entry that changes when anything under it does', async () => {
    const fx = track(makeRepo({ label: 'as-many' }));
    const r = fx.repo;
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: r, input: 'x\n', encoding: 'utf8' }).trim();
    const lines = Array.from({ length: TREE_ENTRY_CAP + 1 }, (_, i) => `100644 ${blob}\t.claude/skills/s${i}/SKILL.md`).join('\n');
    execFileSync('git', ['update-index', '--index-info'], { cwd: r, input: `${lines}\n` });
    git(r, 'commit', '-q', '-m', 'many skills');
    const read = await readAgentSettingsAt(r, 'HEAD');
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({ path: '.claude/', state: 'unreadable', reason: expect.stringContaining('more files under it than kingshand lists') });
  });

  it('a landing past the list bound names the first changes and how many more; the word covers them all', async () => {
    const fx = track(makeRepo({ label: 'as-bound' }));
    const r = fx.repo;
    const base = git(r, 'rev-parse', 'HEAD');
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: r, input: 'x\n', encoding: 'utf8' }).trim();
    const lines = Array.from({ length: SHOWN_CHANGES + 10 }, (_, i) => `100644 ${blob}\t.claude/commands/c${i}.md`).join('\n');
    execFileSync('git', ['update-index', '--index-info'], { cwd: r, input: `${lines}\n` });
    git(r, 'commit', '-q', '-m', 'many commands');
    const s = await landingAgentSettings(r, base, git(r, 'rev-parse', 'HEAD'));
    expect(s).toMatchObject({ needsWord: true, more: 10 });
    expect(s.changes).toHaveLength(SHOWN_CHANGES);
    expect(s.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
