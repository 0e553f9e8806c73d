/**
 * A repository's own agent settings on the wire (issue 37 item 3): what a committed
 * `.claude/settings.json`, `.mcp.json`, `.codex/config.toml`, `.gemini/settings.json` (…) runs or
 * grants, read from a commit's tree (never the worktree or the index). Everything quoted here is
 * repository content — a worker may have written it — and is shown as data, never as instructions.
 */

/** Bounds on what is listed (the evidence is persisted with the worker and shown to the Hand). */
export const SHOWN_CHANGES = 50;
export const SHOWN_GRANTS = 50;

/** One thing a settings file makes an agent run or allows it. */
export interface AgentSettingsGrant {
  /**
   * hook: a command run on an agent event; mcp-server: a server the agent starts or may start;
   * allow-rule: a permission rule that lets a tool run without asking; permission: a mode, a
   * directory or a sandbox switch; command: a helper command (apiKeyHelper, statusLine, …);
   * env: a variable set in the agent's environment; plugin: a plugin or marketplace;
   * restriction: a deny/ask rule or a disabling switch; setting: any other key not known to be
   * inert; file: an agent configuration file whose content kingshand does not read.
   */
  kind: 'hook' | 'mcp-server' | 'allow-rule' | 'permission' | 'command' | 'env' | 'plugin' | 'restriction' | 'setting' | 'file';
  /** Where in the file: `hooks.SessionStart`, `permissions.allow`, `mcpServers.db`. */
  key: string;
  /** What it says, quoted (JSON string form, bounded; a secret-looking value is hidden). */
  says: string;
}

/** One agent-settings file in a commit's tree. */
export interface AgentSettingsFile {
  path: string;
  /** The agent CLIs that read it. */
  agents: string[];
  /** unreadable: present, but its content could not be read (too large, not JSON/TOML, a link…): never "nothing". */
  state: 'present' | 'unreadable';
  reason?: string;
  /** At most SHOWN_GRANTS of them (the summary counts them all); `moreGrants` says how many more. */
  grants: AgentSettingsGrant[];
  moreGrants?: number;
  /** Keys present that run and grant nothing (model, theme, …), names only. */
  inert: string[];
  /** One line: `runs 1 hook (SessionStart: "…") and allows "Bash(npm:*)"`. */
  summary: string;
}

/** A file the landing adds, changes or removes, before and after. */
export interface AgentSettingsChange {
  path: string;
  agents: string[];
  change: 'added' | 'changed' | 'removed';
  /** True when what it runs or grants differs (or either side is unreadable): the person's explicit word is needed. */
  needsWord: boolean;
  before: AgentSettingsFile | null;
  after: AgentSettingsFile | null;
  /** One line for a person: `.claude/settings.json added (read by Claude Code): runs 1 hook (…); before: nothing`. */
  describe: string;
}

/** What a landing changes in the repository's agent settings (base...head trees). */
export interface LandingAgentSettings {
  /** At most SHOWN_CHANGES of them; `more` says how many more (the digest covers them all). */
  changes: AgentSettingsChange[];
  more?: number;
  /** True when any change needs the person's word. */
  needsWord: boolean;
  /** Names exactly these changes: an acceptance covers this digest and nothing else. */
  digest: string;
}

/** What a repository's branch already carries (shown at annex). */
export interface RepoAgentSettings {
  /** The ref read (the base workers are cut from), or null when none could be resolved. */
  ref: string | null;
  sha: string | null;
  /** At most SHOWN_CHANGES of them; `more` says how many more. */
  files: AgentSettingsFile[];
  more?: number;
  /** Why nothing could be read (null when read): never "none". */
  couldNotTell: string | null;
}
