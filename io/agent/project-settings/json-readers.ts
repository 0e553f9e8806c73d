/**
 * Readers of the JSON settings files agent CLIs take from a project directory. Each names what a
 * file runs or grants; a key not known to be inert is named too (kind `setting`), so a setting
 * kingshand has not met — a newer CLI's command key — still needs the person's word. Only keys
 * on an inert list (model, theme, …) may change without it.
 * Facts (Claude Code 2.1.332's own settings schema, Gemini CLI 0.61.0's bundle, Codex CLI
 * 0.169.0's source) are in docs/2026-12-06-a-repositorys-agent-settings-are-the-persons-to-trust.md.
 */
import type { ReadGrant, ReaderResult } from './types.ts';
import { asText, canonical, envGrant, envNames, grant, quoted } from './grant-words.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a JSON object; anything else is the reason it is unreadable. */
export function jsonObject(text: string): { ok: true; value: Obj } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not plain JSON (${(err as Error).message})` };
  }
  if (!isObject(value)) return { ok: false, reason: 'does not hold a JSON object' };
  return { ok: true, value };
}

/**
 * Hooks in the shape Claude Code, Gemini CLI and Codex CLI share: `{Event: [{matcher, hooks:
 * [{type, command|url|prompt}]}]}`. A group or handler of another shape is still a hook (its JSON
 * shown): an unexpected shape never reads as "no hook".
 */
export function hookGrants(base: string, hooks: unknown): ReadGrant[] {
  if (!isObject(hooks)) return [grant('hook', base, hooks)];
  const out: ReadGrant[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const key = `${base}.${event}`;
    if (!Array.isArray(groups)) {
      out.push(grant('hook', key, groups, `${event}: ${quoted(asText(groups))}`));
      continue;
    }
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        out.push(grant('hook', key, group, `${event}: ${quoted(asText(group))}`));
        continue;
      }
      const { hooks: handlers, ...rest } = group;
      const label = typeof group.matcher === 'string' && group.matcher !== '' ? `${event}(${group.matcher})` : event;
      for (const h of handlers as unknown[]) {
        const what = isObject(h) ? (h.command ?? h.url ?? h.prompt ?? h) : h;
        out.push({ kind: 'hook', key, says: `${label}: ${quoted(asText(what))}`, canon: `hook|${key}|${canonical({ group: rest, handler: h })}` });
      }
    }
  }
  return out;
}

/** MCP servers keyed by name: `name: "command args…"` or its URL. */
export function mcpServerGrants(base: string, servers: unknown): ReadGrant[] {
  if (!isObject(servers)) return [grant('mcp-server', base, servers)];
  return Object.entries(servers).map(([name, s]) => {
    const key = `${base}.${name}`;
    if (!isObject(s)) return grant('mcp-server', key, s, `${name}: ${quoted(asText(s))}`);
    const args = Array.isArray(s.args) ? s.args.map((a) => asText(a)) : [];
    const runs = typeof s.command === 'string' ? [s.command, ...args].join(' ') : (s.url ?? s.httpUrl ?? s.serverUrl ?? canonical(s));
    return grant('mcp-server', key, s, `${name}: ${quoted(asText(runs))}${envNames(s.env)}`);
  });
}

function each(kind: ReadGrant['kind'], key: string, list: unknown): ReadGrant[] {
  return Array.isArray(list) ? list.map((rule) => grant(kind, key, rule)) : [grant(kind, key, list)];
}

function envGrants(base: string, env: unknown): ReadGrant[] {
  if (!isObject(env)) return [grant('env', base, env)];
  return Object.entries(env).map(([name, v]) => envGrant(base, name, v));
}

/** A key no list names: a setting it grants, shown with its value. */
const setting = (key: string, v: unknown): ReadGrant => grant('setting', key, v, `${key}: ${quoted(asText(v))}`);

/** What the keys of one file grant, and which of them are inert. */
interface Found {
  grants: ReadGrant[];
  inert: string[];
}

/** A JSON object file read key by key: `read` files each top-level key under what it grants or is. */
function readByKey(text: string, read: (k: string, v: unknown, found: Found) => void): ReaderResult {
  const parsed = jsonObject(text);
  if (!parsed.ok) return parsed;
  const found: Found = { grants: [], inert: [] };
  for (const [k, v] of Object.entries(parsed.value)) read(k, v, found);
  return { ok: true, ...found };
}

/** Claude Code 2.1.332's own list of settings that hold a command it runs (its managed-settings check). */
export const CLAUDE_COMMAND_KEYS = ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'fileSuggestion', 'gcpAuthRefresh', 'otelHeadersHelper', 'processWrapper', 'policyHelpers', 'proxyAuthHelper', 'statusLine', 'subagentStatusLine'];
const CLAUDE_PLUGIN_KEYS = ['enabledPlugins', 'extraKnownMarketplaces', 'additionalMarketplaces', 'pluginConfigs'];
const CLAUDE_INERT = new Set([
  '$schema', 'model', 'theme', 'language', 'outputStyle', 'cleanupPeriodDays', 'includeCoAuthoredBy', 'attribution', 'alwaysThinkingEnabled', 'effortLevel',
  'spinnerTipsEnabled', 'spinnerVerbs', 'verbose', 'showTurnDuration', 'prefersReducedMotion', 'terminalTitleFromRename', 'timeZone', 'syntaxHighlightingDisabled',
  'companyAnnouncements', 'respectGitignore', 'feedbackSurveyRate', 'todoFeatureEnabled', 'autoMemoryEnabled', 'fileCheckpointingEnabled', 'showMessageTimestamps',
]);

/** `.claude/settings.json` (and a committed settings.local.json). */
export function readClaudeSettings(text: string): ReaderResult {
  return readByKey(text, (k, v, { grants, inert }) => {
    if (k === 'hooks') grants.push(...hookGrants('hooks', v));
    else if (k === 'permissions' && isObject(v)) {
      for (const [pk, pv] of Object.entries(v)) {
        const key = `permissions.${pk}`;
        if (pk === 'allow') grants.push(...each('allow-rule', key, pv));
        else if (pk === 'deny' || pk === 'ask') grants.push(...each('restriction', key, pv));
        else if (pk === 'additionalDirectories') grants.push(...each('permission', key, pv));
        else if (pk === 'disableBypassPermissionsMode' || pk === 'disableAutoMode') grants.push(grant('restriction', key, pv));
        else grants.push(grant('permission', key, pv));
      }
    } else if (k === 'env') grants.push(...envGrants('env', v));
    else if (k === 'enableAllProjectMcpServers' || k === 'enabledMcpjsonServers') grants.push(grant('mcp-server', k, v, `${k}: ${quoted(asText(v))} (approves the servers of .mcp.json without asking)`));
    else if (k === 'mcpServers') grants.push(...mcpServerGrants(k, v));
    else if (k === 'disabledMcpjsonServers' || k === 'disableAllHooks' || k === 'deniedMcpServers') grants.push(grant('restriction', k, v));
    else if (CLAUDE_COMMAND_KEYS.includes(k)) grants.push(grant('command', k, v, `${k}: ${quoted(asText(isObject(v) && 'command' in v ? v.command : v))}`));
    else if (CLAUDE_PLUGIN_KEYS.includes(k)) grants.push(grant('plugin', k, v));
    else if (CLAUDE_INERT.has(k)) inert.push(k);
    else grants.push(setting(k, v));
  });
}

/** A JSON file with one key that matters (`key`, read by `read`); every other key is a setting it grants too. */
function oneKeyFile(text: string, key: string, read: (name: string, v: unknown) => ReadGrant[]): ReaderResult {
  return readByKey(text, (k, v, { grants }) => {
    grants.push(...(k === key ? read(key, v) : [setting(k, v)]));
  });
}

/** `.mcp.json`: every server Claude Code may start from the project (approved per server, or all by the settings). */
export function readMcpJson(text: string): ReaderResult {
  return oneKeyFile(text, 'mcpServers', mcpServerGrants);
}

/** `{"hooks": …}` (Codex CLI's `.codex/hooks.json`). */
export function readHooksJson(text: string): ReaderResult {
  return oneKeyFile(text, 'hooks', hookGrants);
}

const GEMINI_INERT_TOP = new Set(['$schema', 'ui', 'output', 'accessibility', 'model']);
const GEMINI_INERT_GENERAL = new Set(['vimMode', 'enableAutoUpdate', 'enableAutoUpdateNotification', 'disableAutoUpdate', 'disableUpdateNag', 'checkpointing', 'sessionRetention', 'enablePromptCompletion']);

/** Gemini CLI 0.61.0's workspace `.gemini/settings.json` (merged whole in a trusted folder: it has no deny list of its own). */
export function readGeminiSettings(text: string): ReaderResult {
  return readByKey(text, (k, v, { grants, inert }) => {
    if (k === 'hooks') grants.push(...hookGrants('hooks', v));
    else if (k === 'mcpServers') grants.push(...mcpServerGrants('mcpServers', v));
    else if (k === 'tools' && isObject(v)) {
      for (const [tk, tv] of Object.entries(v)) {
        const key = `tools.${tk}`;
        if (tk === 'allowed') grants.push(...each('allow-rule', key, tv));
        else if (tk === 'exclude' || tk === 'core') grants.push(...each('restriction', key, tv));
        else if (tk === 'discoveryCommand' || tk === 'callCommand') grants.push(grant('command', key, tv, `${key}: ${quoted(asText(tv))}`));
        else grants.push(setting(key, tv));
      }
    } else if (k === 'policyPaths') grants.push(...each('permission', k, v));
    else if (k === 'general' && isObject(v)) {
      for (const [gk, gv] of Object.entries(v)) {
        if (GEMINI_INERT_GENERAL.has(gk)) inert.push(`general.${gk}`);
        else grants.push(setting(`general.${gk}`, gv));
      }
    } else if (GEMINI_INERT_TOP.has(k)) inert.push(k);
    else grants.push(setting(k, v));
  });
}
