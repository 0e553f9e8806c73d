import { mkdirSync, readFileSync, symlinkSync, writeFileSync, lstatSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isTrusted, trustEdit, tomlBasicString } from '../../../io/agent/codex/trust-toml.ts';
import { codexConfigPath, seedCodexTrust } from '../../../io/agent/codex/trust-seed.ts';
import { makeTempDir } from '../../helpers/temp.ts';

const PERSON = `# my settings
model = "o4"   # keep this comment
model_provider = "work"

[model_providers.work]
base_url = "https://llm.example/v1"
env_key = "WORK_KEY"

[projects."/src/other"]
trust_level = "trusted"
`;

describe('Codex folder trust is a key-preserving edit of config.toml', () => {
  it('adds the worktree as a [projects."<path>"] table and leaves every other byte as it was', () => {
    const edit = trustEdit(PERSON, '/w/one');
    expect(edit.kind).toBe('edited');
    const text = (edit as { text: string }).text;
    expect(text.startsWith(PERSON)).toBe(true);
    expect(text.slice(PERSON.length)).toBe('\n[projects."/w/one"]\ntrust_level = "trusted"\n');
    expect(isTrusted(text, '/w/one')).toBe(true);
    expect(isTrusted(text, '/src/other')).toBe(true);
  });

  it('flips an existing untrusted entry in place, keeping its comment and neighbours', () => {
    const text = `${PERSON}\n[projects."/w/one"]\ntrust_level = "untrusted" # said no once\nother = 1\n`;
    const edit = trustEdit(text, '/w/one');
    expect(edit).toEqual({ kind: 'edited', text: text.replace('"untrusted" # said no once', '"trusted" # said no once') });
  });

  it('adds trust_level under an existing table that lacks one', () => {
    const text = `[projects."/w/one"]\nnote = "x"\n`;
    expect(trustEdit(text, '/w/one')).toEqual({ kind: 'edited', text: `[projects."/w/one"]\ntrust_level = "trusted"\nnote = "x"\n` });
  });

  it('an already trusted worktree is not written again', () => {
    expect(trustEdit(PERSON, '/src/other')).toEqual({ kind: 'already' });
    expect(trustEdit(`[projects.'/lit']\ntrust_level = 'trusted'\n`, '/lit')).toEqual({ kind: 'already' });
  });

  it('refuses shapes it cannot edit safely instead of rewriting them', () => {
    expect(trustEdit('projects = { "/w/one" = { trust_level = "untrusted" } }\n', '/w/one').kind).toBe('refused');
    expect(trustEdit('[projects]\n"/w/one" = { trust_level = "untrusted" }\n', '/w/one').kind).toBe('refused');
  });

  it('escapes quotes and backslashes in the path as TOML does', () => {
    expect(tomlBasicString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const edit = trustEdit('', '/a "b"');
    expect(edit).toEqual({ kind: 'edited', text: '[projects."/a \\"b\\""]\ntrust_level = "trusted"\n' });
    expect(isTrusted((edit as { text: string }).text, '/a "b"')).toBe(true);
  });

  it('keeps CRLF line ends of a file written on Windows', () => {
    const edit = trustEdit('model = "o4"\r\n', '/w');
    expect(edit).toEqual({ kind: 'edited', text: 'model = "o4"\r\n\r\n[projects."/w"]\r\ntrust_level = "trusted"\r\n' });
  });
});

describe('seedCodexTrust writes the person\'s config.toml atomically', () => {
  let dir: ReturnType<typeof makeTempDir> | undefined;
  afterEach(() => dir?.cleanup());

  it('seeds the real path, keeps the file mode, writes through a symlink and leaves no temp file', () => {
    dir = makeTempDir('codex-trust');
    const worktree = join(dir.path, 'wt');
    mkdirSync(worktree);
    const dotfiles = join(dir.path, 'dotfiles');
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'config.toml'), PERSON, { mode: 0o640 });
    const codexHome = join(dir.path, '.codex');
    mkdirSync(codexHome);
    symlinkSync(join(dotfiles, 'config.toml'), join(codexHome, 'config.toml'));
    const configPath = codexConfigPath({ CODEX_HOME: codexHome });

    expect(seedCodexTrust({ configPath, worktree: `${worktree}/` })).toBe('seeded');
    expect(lstatSync(configPath).isSymbolicLink()).toBe(true);
    const written = readFileSync(join(dotfiles, 'config.toml'), 'utf8');
    expect(written.startsWith(PERSON)).toBe(true);
    expect(isTrusted(written, worktree)).toBe(true);
    expect(statSync(join(dotfiles, 'config.toml')).mode & 0o777).toBe(0o640);
    expect(readdirSync(dotfiles)).toEqual(['config.toml']);
    expect(seedCodexTrust({ configPath, worktree })).toBe('already');
  });

  it('creates a config holding only the trust entry when there is none', () => {
    dir = makeTempDir('codex-trust');
    const worktree = join(dir.path, 'wt');
    mkdirSync(worktree);
    const configPath = codexConfigPath({ HOME: dir.path });
    expect(configPath).toBe(join(dir.path, '.codex', 'config.toml'));
    expect(seedCodexTrust({ configPath, worktree })).toBe('created');
    expect(readFileSync(configPath, 'utf8')).toBe(`[projects.${JSON.stringify(worktree)}]\ntrust_level = "trusted"\n`);
  });

  it('a refused shape names the file and the fix, and leaves it untouched', () => {
    dir = makeTempDir('codex-trust');
    const worktree = join(dir.path, 'wt');
    mkdirSync(worktree);
    const configPath = join(dir.path, 'config.toml');
    const original = `projects = { "${worktree}" = { trust_level = "untrusted" } }\n`;
    writeFileSync(configPath, original);
    expect(() => seedCodexTrust({ configPath, worktree })).toThrow(/inline table.*Add \[projects\."/);
    expect(readFileSync(configPath, 'utf8')).toBe(original);
  });
});
