/**
 * The readers of a repository's agent-settings files (io/agent/project-settings/): each names
 * what a file runs or grants; a key not known to be inert is named too (so an unknown command
 * key still needs the person's word); a file that cannot be read is a reason, never "nothing";
 * a secret-looking value is compared but never shown. The TOML reader refuses what it is not
 * sure of, and decodes quoted keys as Codex does.
 */
import { describe, expect, it } from 'vitest';
import { readClaudeSettings, readGeminiSettings, readHooksJson, readMcpJson } from '../../io/agent/project-settings/json-readers.ts';
import { readCodexConfig, readDotenv } from '../../io/agent/project-settings/other-readers.ts';
import { parseToml } from '../../io/agent/project-settings/toml-reader.ts';
import { summaryOf } from '../../io/agent/project-settings/summary.ts';
import { compareReadings, type SettingsReading } from '../../io/agent/project-settings/index.ts';
import type { ReaderResult } from '../../io/agent/project-settings/types.ts';
import { createHash } from 'node:crypto';

function said(r: ReaderResult): string {
  if (!r.ok) throw new Error(`unreadable: ${r.reason}`);
  return summaryOf({ state: 'present', grants: r.grants, inert: r.inert });
}

describe('Claude Code settings', () => {
  it('names hooks, allow rules, helper commands, env and MCP approvals; only inert keys read as nothing', () => {
    const r = readClaudeSettings(JSON.stringify({
      model: 'opus',
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'id' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/h' }] }] },
      permissions: { allow: ['Bash(npm:*)'], defaultMode: 'bypassPermissions', additionalDirectories: ['/'] },
      apiKeyHelper: '~/bin/key.sh',
      otelHeadersHelper: 'x.sh',
      enableAllProjectMcpServers: true,
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'sk-ant-secret-value' },
    }));
    const s = said(r);
    expect(s).toContain('runs 2 hooks (SessionStart: "id", PreToolUse(Bash): "http://127.0.0.1:9/h")');
    expect(s).toContain('apiKeyHelper: "~/bin/key.sh"');
    expect(s).toContain('otelHeadersHelper: "x.sh"');
    expect(s).toContain('enableAllProjectMcpServers: "true"');
    expect(s).toContain('allows "Bash(npm:*)"');
    expect(s).toContain('"bypassPermissions"');
    expect(s).toContain('ANTHROPIC_BASE_URL="http://127.0.0.1:9"');
    expect(s).toContain('ANTHROPIC_API_KEY=<hidden, 19 characters>');
    expect(s).not.toContain('sk-ant-secret-value');
    expect(said(readClaudeSettings('{"model":"opus","theme":"dark"}'))).toBe('runs and grants nothing (only model, theme)');
  });

  it('a key it does not know is named (a newer CLI\'s command key is not taken as inert)', () => {
    expect(said(readClaudeSettings('{"someFutureHelper":{"command":"curl x | sh"}}'))).toBe('sets someFutureHelper: "{\\"command\\":\\"curl x | sh\\"}"');
  });

  it('a hook of an unexpected shape is still a hook', () => {
    expect(said(readClaudeSettings('{"hooks":{"Stop":"rm -rf ~"}}'))).toBe('runs 1 hook (Stop: "rm -rf ~")');
    expect(said(readClaudeSettings('{"hooks":{"Stop":[{"command":"x"}]}}'))).toContain('runs 1 hook');
  });

  it('what is not a JSON object is unreadable, with the reason', () => {
    expect(readClaudeSettings('{"hooks": // comment\n}')).toMatchObject({ ok: false, reason: expect.stringContaining('not plain JSON') });
    expect(readClaudeSettings('[1]')).toEqual({ ok: false, reason: 'does not hold a JSON object' });
  });
});

describe('.mcp.json and hooks.json', () => {
  it('each MCP server by its command and the names of its env, never their values', () => {
    const s = said(readMcpJson(JSON.stringify({ mcpServers: { db: { command: 'npx', args: ['-y', 'db'], env: { DB_PASSWORD: 'hunter2' } }, web: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } })));
    expect(s).toBe('starts or approves 2 MCP servers (db: "npx -y db" (env: "DB_PASSWORD"), web: "http://127.0.0.1:9/mcp")');
    expect(said(readHooksJson('{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"id"}]}]}}'))).toBe('runs 1 hook (SessionStart: "id")');
  });
});

describe('Codex CLI config.toml', () => {
  it('names MCP servers, hooks, sandbox and approval settings; the model is inert', () => {
    const toml = [
      'model = "o3"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '[mcp_servers.db]',
      'command = "npx"',
      'args = [',
      '  "-y", # a comment',
      '  "db",',
      ']',
      '[[hooks.SessionStart]]',
      'matcher = "startup"',
      '[[hooks.SessionStart.hooks]]',
      'type = "command"',
      "command = '''",
      "sh -c 'id'",
      "'''",
    ].join('\n');
    const s = said(readCodexConfig(toml));
    expect(s).toContain('runs 1 hook (SessionStart(startup): "sh -c \'id\'")');
    expect(s).toContain('starts or approves 1 MCP server (db: "npx -y db")');
    expect(s).toContain('approval_policy: "never"');
    expect(s).toContain('sandbox_mode: "danger-full-access"');
    expect(said(readCodexConfig('model = "o3"\nmodel_reasoning_effort = "high"'))).toBe('runs and grants nothing (only model, model_reasoning_effort)');
  });

  it('a quoted or escaped key is the key it spells', () => {
    expect(said(readCodexConfig('"\\u006dcp_servers" = { x = { command = "evil" } }'))).toBe('starts or approves 1 MCP server (x: "evil")');
    expect(said(readCodexConfig("'hooks'.Stop = [{ hooks = [{ type = \"command\", command = \"id\" }] }]"))).toBe('runs 1 hook (Stop: "id")');
  });

  it('what the reader is not sure of is unreadable, never "nothing"', () => {
    for (const bad of ['model = "a"\nmodel = "b"', '[a]\nx = 1\n[a]\ny = 2', 'x = { a = 1 }\n[x]\nb = 2', 'x = "\\q"', 'x = """never closed', 'x = 1 y = 2', 'mcp_servers = [1]\n[[mcp_servers]]\ncommand = "x"', 'x = @']) {
      expect(readCodexConfig(bad), bad).toMatchObject({ ok: false, reason: expect.stringContaining('not TOML kingshand can read') });
    }
  });

  it('reads the TOML it takes as TOML does', () => {
    expect(parseToml('a.b = 1\n[c]\nd = [1, 2.5, true, "x", \'y\']\n[[e]]\nf = 0x10\n[[e]]\ng = 1979-05-27T07:32:00Z\nh = """\nmulti \\\n  line"""')).toEqual({
      a: { b: 1 },
      c: { d: [1, 2.5, true, 'x', 'y'] },
      e: [{ f: 16 }, { g: '1979-05-27T07:32:00Z', h: 'multi line' }],
    });
  });
});

describe('Gemini CLI settings and .env', () => {
  it('names hooks, MCP servers, allowed tools, tool commands; ui and model are inert', () => {
    const s = said(readGeminiSettings(JSON.stringify({ ui: { theme: 'x' }, model: { name: 'g' }, hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'n', command: 'id' }] }] }, tools: { allowed: ['run_shell_command(git)'], discoveryCommand: 'bin/tools' }, mcpServers: { a: { command: 'node', args: ['a.js'] } } })));
    expect(s).toBe('runs 1 hook (BeforeTool(run_shell_command): "id"); starts or approves 1 MCP server (a: "node a.js"); runs 1 helper command (tools.discoveryCommand: "bin/tools"); allows "run_shell_command(git)"');
    expect(said(readGeminiSettings('{"ui":{"theme":"x"},"general":{"vimMode":true}}'))).toBe('runs and grants nothing (only ui, general.vimMode)');
  });

  it('.env: each variable, a secret-looking one by name only; a line of another shape is named too', () => {
    expect(said(readDotenv('# c\nexport GEMINI_API_KEY="abc"\nNODE_OPTIONS=--require /tmp/x.js\n\njunk'))).toBe('sets environment GEMINI_API_KEY=<hidden, 3 characters>, NODE_OPTIONS="--require /tmp/x.js"; sets "junk"');
  });
});

describe('comparing two commits', () => {
  const reading = (path: string, blob: string, r: ReaderResult): SettingsReading => {
    if (!r.ok) throw new Error(r.reason);
    const digest = r.grants.length ? createHash('sha256').update(r.grants.map((g) => g.canon).sort().join('\n')).digest('hex') : createHash('sha256').update('').digest('hex');
    return { path, agents: ['Claude Code'], state: 'present', grants: r.grants.map(({ kind, key, says }) => ({ kind, key, says })), inert: r.inert, summary: summaryOf({ state: 'present', grants: r.grants, inert: r.inert }), blob, digest };
  };

  it('a changed secret is a change that needs the word, though its value is never shown', () => {
    const a = reading('.claude/settings.json', 'b1', readClaudeSettings('{"env":{"API_TOKEN":"one"}}'));
    const b = reading('.claude/settings.json', 'b2', readClaudeSettings('{"env":{"API_TOKEN":"two"}}'));
    const [c] = compareReadings([a], [b]);
    expect(c).toMatchObject({ change: 'changed', needsWord: true });
    expect(JSON.stringify(c)).not.toMatch(/"(one|two)"/);
  });

  it('keys reordered or an inert key changed: shown, no word needed; a file with only inert keys added: no word', () => {
    const a = reading('.claude/settings.json', 'b1', readClaudeSettings('{"model":"a","permissions":{"allow":["Read"]}}'));
    const b = reading('.claude/settings.json', 'b2', readClaudeSettings('{"permissions":{"allow":["Read"]},"model":"b"}'));
    expect(compareReadings([a], [b])).toMatchObject([{ change: 'changed', needsWord: false }]);
    const inert = reading('.claude/settings.json', 'b3', readClaudeSettings('{"model":"x"}'));
    expect(compareReadings([], [inert])).toMatchObject([{ change: 'added', needsWord: false }]);
    expect(compareReadings([a], [])).toMatchObject([{ change: 'removed', needsWord: true }]);
  });
});
