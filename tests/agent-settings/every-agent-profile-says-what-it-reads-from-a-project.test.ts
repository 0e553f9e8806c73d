/**
 * Every agent profile says what its CLI takes from a project directory that can run or grant
 * something (`projectSettings`, a required field: a new profile does not compile without it),
 * and the facts each list rests on are pinned to the CLIs installed here: Claude Code 2.1.332's
 * own list of settings that hold a command, Codex CLI 0.169.0's trust-gated project config and
 * hooks (and the hook-trust bypass kingshand never passes), Gemini CLI 0.61.0's whole-file merge
 * of workspace settings and its `.env` loading. A newer CLI that changes one fails here first.
 */
import { closeSync, openSync, readSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentProfiles } from '../../io/agent/profiles/index.ts';
import { projectSettingsSources, sourceFor } from '../../io/agent/project-settings/index.ts';
import { CLAUDE_COMMAND_KEYS } from '../../io/agent/project-settings/json-readers.ts';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { PERMISSION_POSTURES } from '../../contract/vocabulary.ts';
import { opencodeBinaryFor } from '../harness/real-opencode.ts';

const NM = join(KINGSHAND_ROOT, 'node_modules');

/** Whether `needle` occurs in the file, read in bounded chunks (the binaries are hundreds of MB). */
function fileContains(path: string, needle: string): boolean {
  const n = Buffer.from(needle);
  const chunk = Buffer.alloc(32 * 1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    for (;;) {
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) return false;
      const hay = Buffer.concat([carry, chunk.subarray(0, got)]);
      if (hay.indexOf(n) >= 0) return true;
      carry = hay.subarray(Math.max(0, hay.length - n.length));
    }
  } finally {
    closeSync(fd);
  }
}

describe('every agent profile says what it reads from a project', () => {
  it('each profile lists its sources; each real CLI its settings file and its own directory', () => {
    for (const p of agentProfiles()) {
      expect(Array.isArray(p.projectSettings), p.name).toBe(true);
      for (const s of p.projectSettings) {
        expect(s.path, p.name).not.toMatch(/^\/|(^|\/)\.\.(\/|$)/);
        expect(s.reads.length, `${p.name} ${s.path}`).toBeGreaterThan(10);
      }
    }
    const paths = (name: string) => agentProfiles().find((p) => p.name === name)!.projectSettings.map((s) => `${s.path} ${s.format}`);
    expect(paths('claude')).toEqual(expect.arrayContaining(['.claude/settings.json claude-settings', '.claude/settings.local.json claude-settings', '.mcp.json mcp-json', '.claude/ opaque']));
    expect(paths('opencode')).toEqual(expect.arrayContaining(['opencode.json opaque', 'opencode.jsonc opaque', '.opencode/ opaque']));
    expect(paths('codex')).toEqual(expect.arrayContaining(['.codex/config.toml codex-config', '.codex/hooks.json hooks-json', '.codex/ opaque']));
    expect(paths('gemini')).toEqual(expect.arrayContaining(['.gemini/settings.json gemini-settings', '.gemini/.env dotenv', '.env dotenv', '.gemini/ opaque']));
    expect(paths('qwen')).toEqual(expect.arrayContaining(['.qwen/settings.json opaque', '.qwen/.env dotenv', '.env dotenv', '.qwen/ opaque']));
    // The mock agent runs no hooks and starts no server: it reads nothing from a project.
    expect(paths('mock')).toEqual([]);
  });

  it('a file falls under its own source first, else the deepest directory; a shared directory names every agent that reads it', () => {
    const sources = projectSettingsSources();
    expect(sourceFor('.claude/settings.json', sources)).toMatchObject({ format: 'claude-settings' });
    expect(sourceFor('.claude/skills/x/SKILL.md', sources)).toMatchObject({ format: 'opaque', agents: ['Claude Code', 'OpenCode'] });
    expect(sourceFor('.gemini/.env', sources)).toMatchObject({ format: 'dotenv' });
    expect(sourceFor('.agents/skills/a/SKILL.md', sources)!.agents.sort()).toEqual(['Codex CLI', 'Gemini CLI', 'OpenCode']);
    expect(sourceFor('.opencode/plugins/x.ts', sources)).toMatchObject({ format: 'opaque', agents: ['OpenCode'] });
    expect(sourceFor('opencode.json', sources)).toMatchObject({ format: 'opaque', agents: ['OpenCode'] });
    expect(sourceFor('.qwen/settings.json', sources)).toMatchObject({ format: 'opaque', agents: ['Qwen Code'] });
    expect(sourceFor('src/.claude/settings.json', sources)).toBeNull();
  });

  it("Claude Code 2.1.332's own list of settings that hold a command is the one the reader names", () => {
    const bin = join(NM, '@anthropic-ai', 'claude-code-linux-x64', 'claude');
    expect(fileContains(bin, JSON.stringify(CLAUDE_COMMAND_KEYS))).toBe(true);
    expect(fileContains(bin, 'enableAllProjectMcpServers')).toBe(true);
  });

  it('Codex CLI 0.169.0 loads project config, hooks and exec policies in a trusted project; kingshand never bypasses its hook trust', () => {
    const bin = join(NM, '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
    expect(fileContains(bin, 'project-local config, hooks, and exec policies')).toBe(true);
    expect(fileContains(bin, 'hooks.json')).toBe(true);
    expect(fileContains(bin, '--dangerously-bypass-hook-trust')).toBe(true);
    const codex = agentProfiles().find((p) => p.name === 'codex')!;
    for (const posture of PERMISSION_POSTURES) {
      expect(codex.launchArgv('codex', posture).join(' ')).not.toContain('bypass-hook-trust');
      expect(codex.farLaunchArgv(posture).join(' ')).not.toContain('bypass-hook-trust');
    }
  });

  it('Gemini CLI 0.61.0 merges workspace settings whole in a trusted folder and loads .gemini/.env or .env into its environment', () => {
    const dir = join(NM, '@google', 'gemini-cli', 'bundle');
    const text = readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, f), 'utf8')).find((t) => t.includes('function loadEnvironment('))!;
    expect(text).toContain('const safeWorkspace = isTrusted ? workspace : {};');
    expect(text).toContain('const geminiEnvPath = path3.join(currentDir, GEMINI_DIR, ".env");');
    expect(text).toContain('const envPath = path3.join(currentDir, ".env");');
  });

  it('OpenCode 1.18.33 merges the project\'s opencode.json and every .opencode directory over the person\'s config, and reads skills under .claude and .agents', () => {
    // The pinned binary: HAND_OPENCODE_BIN, node_modules, else the test cache (~/.cache/kingshand/opencode/<version>).
    const bin = opencodeBinaryFor();
    // Its config loader: project files unless OPENCODE_DISABLE_PROJECT_CONFIG, then each .opencode directory's.
    expect(fileContains(bin, 'if(!k.OPENCODE_DISABLE_PROJECT_CONFIG)for(let G of yield*QW.files("opencode",j.directory,j.worktree)')).toBe(true);
    expect(fileContains(bin, 'if(G.endsWith(".opencode")||G===k.OPENCODE_CONFIG_DIR)for(let I of["opencode.json","opencode.jsonc"])')).toBe(true);
    expect(fileContains(bin, 'var bA=".claude",xA=".agents",GA="skills/**/SKILL.md"')).toBe(true);
    // The worker's own rules are merged over every file's (launch-env.ts): a project cannot widen the posture.
    expect(fileContains(bin, 'if(k.OPENCODE_PERMISSION)try{B.permission=$$(B.permission??{},JSON.parse(k.OPENCODE_PERMISSION))}')).toBe(true);
  });
});
