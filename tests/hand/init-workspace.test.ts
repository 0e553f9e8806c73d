/**
 * `hand init`: a fresh workspace holds the whole kit and the person's files; a re-run changes
 * nothing; an upgrade rewrites kit files and never the person's; a directory holding other
 * things is refused unless named with --force-dir; every file written is printed.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { HAND_BIN, runProcess } from '../helpers/hand-process.ts';
import { SKILLS } from '../../io/workspace/init.ts';

const tempDir = useTempDirs();

function world() {
  const root = tempDir('hand-init');
  const state = join(root, 'state');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home'), HAND_HOME: state };
  const init = (...args: string[]) => runProcess([process.execPath, HAND_BIN, 'init', ...args], env, 30_000);
  return { root, state, ws: join(root, 'ws'), init };
}

const PERSON_FILES = ['instructions.md', 'memory/king.md', 'memory/learnings.md', 'memory/budget', 'data/index.md'];

describe('hand init', () => {
  it('a fresh workspace gets the kit and the person files, and every file written is printed', async () => {
    const w = world();
    const r = await w.init(w.ws);
    expect(r.code, r.stderr).toBe(0);
    const kit = ['CLAUDE.md', '.claude/settings.json', '.mcp.json', '.hand/workspace.json', ...SKILLS.map((s) => `.claude/skills/${s}/SKILL.md`)];
    for (const f of [...kit, ...PERSON_FILES]) {
      expect(existsSync(join(w.ws, f)), f).toBe(true);
      expect(r.stdout).toMatch(new RegExp(`created\\s+${f.replace(/[.]/g, '\\.')}`));
    }
    expect(SKILLS).toEqual(expect.arrayContaining(['annex', 'muster', 'rally', 'survey', 'audience', 'afk', 'chronicle', 'herald']));
    for (const s of SKILLS) {
      const skill = readFileSync(join(w.ws, '.claude/skills', s, 'SKILL.md'), 'utf8');
      expect(skill).toMatch(new RegExp(`^---\\nname: ${s}\\ndescription: .+\\n---\\n`));
      expect(skill, s).not.toContain('{{');
    }
    const md = readFileSync(join(w.ws, 'CLAUDE.md'), 'utf8');
    expect(md).toContain('Never do project work yourself');
    expect(md).toContain("Never answer a worker's question for the person");
    expect(md).toContain(`${process.execPath} ${HAND_BIN}`);
    expect(md).not.toContain('{{');
  });

  it('the kit uses the plain hyphen only, never a long dash (workflow §0.5 rule 4)', async () => {
    const w = world();
    expect((await w.init(w.ws)).code).toBe(0);
    for (const f of ['CLAUDE.md', 'instructions.md', ...SKILLS.map((s) => `.claude/skills/${s}/SKILL.md`)]) {
      expect(readFileSync(join(w.ws, f), 'utf8'), f).not.toMatch(/[\u2013\u2014]/);
    }
  });

  it('settings: the SessionStart hook and the MCP server run this installation by absolute path; deny rules guard secrets and instructions.md', async () => {
    const w = world();
    expect((await w.init(w.ws)).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(w.ws, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`${process.execPath} ${HAND_BIN} digest --hook --workspace ${w.ws}`);
    expect(settings.enabledMcpjsonServers).toEqual(['hand']);
    expect(settings.permissions.allow).toContain('mcp__hand');
    expect(settings.permissions.deny).toEqual(expect.arrayContaining(['Read(~/.ssh/**)', 'Read(~/.aws/credentials)', 'Edit(/instructions.md)', `Read(/${w.state}/fleet.db*)`, 'Bash(*--accept-agent-settings*)']));
    const mcp = JSON.parse(readFileSync(join(w.ws, '.mcp.json'), 'utf8'));
    expect(mcp.mcpServers.hand).toMatchObject({ type: 'stdio', command: process.execPath, args: [HAND_BIN, 'mcp', '--workspace', w.ws] });
  });

  it('a re-run rewrites nothing', async () => {
    const w = world();
    expect((await w.init(w.ws)).code).toBe(0);
    const before = statSync(join(w.ws, 'CLAUDE.md')).mtimeMs;
    const again = await w.init(w.ws, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.upgraded).toBe(true);
    expect(new Set(again.json.files.map((f: { action: string }) => f.action))).toEqual(new Set(['unchanged', 'kept']));
    expect(statSync(join(w.ws, 'CLAUDE.md')).mtimeMs).toBe(before);
  });

  it('an upgrade rewrites kit files and never touches the person files', async () => {
    const w = world();
    expect((await w.init(w.ws)).code).toBe(0);
    writeFileSync(join(w.ws, 'CLAUDE.md'), '# an old kit\n');
    writeFileSync(join(w.ws, '.claude/skills/muster/SKILL.md'), 'old\n');
    const mine: Record<string, string> = {};
    for (const f of PERSON_FILES) {
      mine[f] = `my own ${f}\n`;
      writeFileSync(join(w.ws, f), mine[f]!);
    }
    writeFileSync(join(w.ws, 'data', 'notes.md'), 'my notes\n');
    const r = await w.init(w.ws);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/updated\s+CLAUDE\.md/);
    expect(r.stdout).toMatch(/updated\s+\.claude\/skills\/muster\/SKILL\.md/);
    expect(readFileSync(join(w.ws, 'CLAUDE.md'), 'utf8')).toContain('You are the Hand');
    for (const f of PERSON_FILES) {
      expect(readFileSync(join(w.ws, f), 'utf8'), f).toBe(mine[f]);
      expect(r.stdout).toMatch(new RegExp(`kept\\s+${f.replace(/[.]/g, '\\.')} \\(yours\\)`));
    }
    expect(readFileSync(join(w.ws, 'data', 'notes.md'), 'utf8')).toBe('my notes\n');
  });

  it('an upgrade keeps other MCP servers the person registered in .mcp.json', async () => {
    const w = world();
    expect((await w.init(w.ws)).code).toBe(0);
    const mcpPath = join(w.ws, '.mcp.json');
    const mcp = JSON.parse(readFileSync(mcpPath, 'utf8'));
    mcp.mcpServers.other = { type: 'stdio', command: 'other-server' };
    writeFileSync(mcpPath, JSON.stringify(mcp));
    expect((await w.init(w.ws)).code).toBe(0);
    const after = JSON.parse(readFileSync(mcpPath, 'utf8'));
    expect(after.mcpServers.other).toEqual({ type: 'stdio', command: 'other-server' });
    expect(after.mcpServers.hand.command).toBe(process.execPath);
  });

  it('refuses a directory holding other things and writes nothing there, unless named with --force-dir', async () => {
    const w = world();
    mkdirSync(w.ws);
    writeFileSync(join(w.ws, 'CLAUDE.md'), '# a project of mine\n');
    const r = await w.init(w.ws, '--json');
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'workspace-dir-not-empty', dir: w.ws });
    expect(r.stderr).toContain('--force-dir');
    expect(readFileSync(join(w.ws, 'CLAUDE.md'), 'utf8')).toBe('# a project of mine\n');
    expect(existsSync(join(w.ws, '.claude'))).toBe(false);
    const forced = await w.init(w.ws, '--force-dir');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(w.ws, 'CLAUDE.md'), 'utf8')).toContain('You are the Hand');
  });

  it('an explicit --home is baked into the commands; without it they follow $HAND_HOME at run time', async () => {
    const w = world();
    const r = await runProcess([process.execPath, HAND_BIN, '--home', w.state, 'init', w.ws], { PATH: process.env.PATH ?? '' }, 30_000);
    expect(r.code, r.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(w.ws, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toContain(`--home ${w.state} digest`);
    expect(JSON.parse(readFileSync(join(w.ws, '.mcp.json'), 'utf8')).mcpServers.hand.args).toEqual([HAND_BIN, '--home', w.state, 'mcp', '--workspace', w.ws]);
  });
});
