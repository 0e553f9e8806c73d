/**
 * Readers of the non-JSON files agent CLIs take from a project directory: Codex CLI's
 * `.codex/config.toml` and the `.env` files Gemini CLI loads into its own environment (which
 * every shell command, hook and MCP server it starts inherits).
 */
import type { ReadGrant, ReaderResult } from './types.ts';
import { asText, envGrant, grant, quoted } from './grant-words.ts';
import { hookGrants, mcpServerGrants } from './json-readers.ts';
import { parseToml } from './toml-reader.ts';

type Obj = Record<string, unknown>;

const CODEX_PERMISSION_KEYS = new Set(['approval_policy', 'sandbox_mode', 'sandbox_workspace_write', 'default_permissions', 'permissions', 'shell_environment_policy', 'approvals_reviewer']);
const CODEX_COMMAND_KEYS = new Set(['notify', 'js_repl_node_path', 'zsh_path', 'model_instructions_file', 'experimental_instructions_file']);
const CODEX_INERT = new Set(['model', 'model_reasoning_effort', 'model_reasoning_summary', 'model_verbosity', 'plan_mode_reasoning_effort', 'review_model', 'hide_agent_reasoning', 'show_raw_agent_reasoning', 'project_doc_max_bytes', 'tui', 'notice', 'check_for_update_on_startup']);

/** Codex CLI 0.169.0's project `.codex/config.toml` (loaded in a trusted project, less its own deny list of keys). */
export function readCodexConfig(text: string): ReaderResult {
  let config: Obj;
  try {
    config = parseToml(text);
  } catch (err) {
    return { ok: false, reason: `not TOML kingshand can read (${(err as Error).message})` };
  }
  const grants: ReadGrant[] = [];
  const inert: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    if (k === 'mcp_servers') grants.push(...mcpServerGrants(k, v));
    else if (k === 'hooks') grants.push(...hookGrants(k, v));
    else if (CODEX_PERMISSION_KEYS.has(k)) grants.push(grant('permission', k, v, `${k}: ${quoted(asText(v))}`));
    else if (CODEX_COMMAND_KEYS.has(k)) grants.push(grant('command', k, v, `${k}: ${quoted(asText(v))}`));
    else if (CODEX_INERT.has(k)) inert.push(k);
    else grants.push(grant('setting', k, v, `${k}: ${quoted(asText(v))}`));
  }
  return { ok: true, grants, inert };
}

/**
 * KEY=value lines (dotenv's syntax: `export ` allowed, quotes around the value). A line of any
 * other shape is named too: dotenv skips it, but kingshand does not guess which ones it skips.
 */
export function readDotenv(text: string): ReaderResult {
  const grants: ReadGrant[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) {
      grants.push(grant('setting', `line ${i + 1}`, line));
      continue;
    }
    const value = m[2]!.replace(/^(['"`])([\s\S]*)\1$/, '$2');
    grants.push(envGrant('env', m[1]!, value));
  }
  return { ok: true, grants, inert: [] };
}
