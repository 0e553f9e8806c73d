/**
 * The fleet operations behind both faces of `hand`: the CLI (cli/program.ts and cli/commands/) and the MCP server
 * (mcp/server.ts). Each operation checks its arguments, builds the daemon request and returns
 * the daemon's answer, so a result printed by `hand … --json` and a result returned by an MCP
 * tool are the same object, and a refusal is the same error with the same text.
 */
import { UsageError } from '../contract/errors.ts';
import { EVERY_AGENT } from '../contract/methods/calibration.ts';
import { parseOneKey } from '../io/terminal/keys.ts';
import { call } from './client.ts';
import { parseDuration } from './durations.ts';
import { pathArg } from './arguments.ts';
import { checkSendableText } from '../io/text/sendable-text.ts';
import { AGENTS, BACKENDS, POSTURES, UNTILS, isOneOf, type AgentName } from '../contract/vocabulary.ts';
import { badAgent } from '../contract/refusals.ts';
import type { HomePaths } from '../contract/home.ts';
import type { CalibrateProgress, CalibrateResult, WaitProgress, WaitReport } from '../contract/methods.ts';
import { parsePermissionPosture } from '../io/agent/claude/permissions.ts';
import { cliEnv } from './io.ts';
import { HAND_CALLER_ENV } from '../contract/hand-caller.ts';

// The vocabulary is written once (contract/vocabulary.ts); MCP's schemas read it from here too.
export { POSTURES, AGENTS, BACKENDS, UNTILS };

/**
 * Variables a Claude Code session sets for its own children. A worker launched from the Hand
 * (its MCP server or its Bash tool) must not inherit them: a worker is its own session.
 */
const HAND_SESSION_VARS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SSE_PORT', HAND_CALLER_ENV];

/** An environment as the wire carries it: the variables that are set. */
export const definedOnly = (env: NodeJS.ProcessEnv): Record<string, string> => Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

function callerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(cliEnv())) if (v !== undefined && !HAND_SESSION_VARS.includes(k)) env[k] = v;
  return env;
}

export function parseEnvPairs(pairs: string[]): Record<string, string> {
  const envAdd: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair);
    if (!m) throw new UsageError('bad-env', `--env ${JSON.stringify(pair)} is not KEY=VALUE. Example: --env CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=1`, { value: pair });
    envAdd[m[1]!] = m[2]!;
  }
  return envAdd;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, flag: string): T {
  const v = value ?? fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`bad-${flag}`, `--${flag} ${JSON.stringify(v)} is unknown. Use one of: ${allowed.join(', ')}.`, { [flag]: v });
  return v as T;
}

/**
 * `--agent` when given (refused naming the agents that exist), else undefined: an absent agent is
 * not claude, since dispatch then runs the project's default and annex keeps the one recorded.
 */
export function agentArg(value: string | undefined): AgentName | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isOneOf(AGENTS, value)) throw badAgent(value);
  return value;
}

export interface AnnexArgs { repo: string; name?: string; posture?: string; yolo?: boolean; permissions?: string; agent?: string }
export interface DispatchArgs { id?: string; repo?: string; brief?: string; item?: string; readPaths?: string[]; agent?: string; backend?: string; stall?: string; unclear?: string; env?: string[]; taskKind?: string; workspace?: string; host?: string; strict?: boolean; quick?: boolean; readOnly?: boolean }
export interface WaitArgs { id: string; until?: string; timeout?: string }

export const ops = {
  annexPropose: (p: HomePaths, a: { repo: string }) => call(p, 'annex.propose', { repo: pathArg(a.repo, 'the repository path', 'hand annex ~/src/shop --propose'), env: callerEnv() }),
  annex: (p: HomePaths, a: AnnexArgs) =>
    call(p, 'annex', { repo: pathArg(a.repo, 'the repository path', 'hand annex ~/src/shop'), name: a.name, posture: oneOf(a.posture, POSTURES, 'local-only', 'posture'), yolo: a.yolo === true, permissions: a.permissions ? parsePermissionPosture(a.permissions) : undefined, agent: agentArg(a.agent), env: callerEnv() }),

  projects: (p: HomePaths) => call(p, 'projects'),

  dispatch(p: HomePaths, a: DispatchArgs) {
    const stallMs = parseDuration(a.stall ?? '20m', '--stall');
    const unclassifiedMs = a.unclear === undefined ? undefined : parseDuration(a.unclear, '--unclear');
    const envAdd = parseEnvPairs(a.env ?? []);
    // A backlog item carries its own id, project and brief; otherwise all three are needed.
    if (!a.item && (!a.id || a.repo === undefined || a.brief === undefined)) throw new UsageError('dispatch-needs', 'hand dispatch needs <id> --repo <path> --brief <file>, or --item <backlog id>.');
    return call(p, 'dispatch', {
      id: a.id, item: a.item,
      repo: a.repo === undefined ? undefined : pathArg(a.repo, '--repo', '--repo ~/src/shop'),
      brief: a.brief === undefined ? undefined : pathArg(a.brief, '--brief', '--brief brief.md'),
      readPaths: (a.readPaths ?? []).map((r) => pathArg(r, '--read-path', '--read-path docs/spec.md')),
      agent: agentArg(a.agent), backend: oneOf(a.backend, BACKENDS, 'tmux', 'backend'), stallMs, unclassifiedMs,
      // The worker runs with the environment of this call (API keys, base URLs, proxies live there).
      env: callerEnv(),
      envAdd,
      taskKind: a.taskKind,
      workspace: a.workspace === undefined ? undefined : pathArg(a.workspace, '--workspace', '--workspace ~/kingshand'),
      host: a.host,
      ...(a.strict === true && { strict: true }),
      ...(a.quick === true && { quick: true }),
      ...(a.readOnly === true && { readOnly: true }),
    });
  },

  status: (p: HomePaths, a: { id?: string } = {}) => call(p, 'status', { id: a.id }),

  /**
   * Waits for the worker's condition. A blocked worker's answer also quotes its question and
   * options from the screen: whoever waited must be able to tell the person what is asked. Both
   * are the worker's words, quoted and attributed (`worker w1 wrote: "…"`).
   */
  async wait(p: HomePaths, a: WaitArgs, onProgress?: (progress: WaitProgress) => void): Promise<WaitReport & { question?: string | null; options?: string[] }> {
    const until = oneOf(a.until, UNTILS, 'any', 'until');
    const timeoutMs = parseDuration(a.timeout ?? '30m', '--timeout');
    // The daemon lifts the question and options once, for every face (io/screen/asked.ts).
    return call(p, 'wait', { id: a.id, until, timeoutMs }, { onProgress });
  },

  read(p: HomePaths, a: { id: string; scrollback?: number }) {
    if (a.scrollback !== undefined && !(a.scrollback > 0)) throw new UsageError('bad-scrollback', '--scrollback takes a positive number of lines, e.g. --scrollback 200.');
    return call(p, 'read', { id: a.id, scrollback: a.scrollback });
  },
  report(p: HomePaths, a: { id: string }) {
    return call(p, 'report', { id: a.id });
  },

  send(p: HomePaths, a: { id: string; text: string; allowNonEmptyBox?: boolean }) {
    const text = checkSendableText(a.text, a.id); // refused before any daemon is started
    return call(p, 'send', { id: a.id, text, allowNonEmptyBox: a.allowNonEmptyBox === true });
  },

  keys(p: HomePaths, a: { id: string; key: string; allowNonEmptyBox?: boolean }) {
    parseOneKey(a.key); // bad usage is refused here, before any daemon is started
    return call(p, 'keys', { id: a.id, key: a.key, allowNonEmptyBox: a.allowNonEmptyBox === true });
  },

  answer(p: HomePaths, a: { id: string; option: string | number; fingerprint?: string }) {
    const option = typeof a.option === 'number' ? a.option : /^\d{1,2}$/.test(a.option.trim()) ? Number(a.option) : NaN;
    if (!Number.isInteger(option) || option < 1) throw new UsageError('bad-option', `the option is the number the dialog shows (1, 2, …), not ${JSON.stringify(a.option)}: hand answer ${a.id} <n> --fingerprint <fp>.`);
    if (!a.fingerprint) throw new UsageError('fingerprint-required', `hand answer needs the fingerprint of the dialog you read (--fingerprint, from dialog.fingerprint in hand read ${a.id} --json): a dialog that changed is never answered.`);
    return call(p, 'answer', { id: a.id, option, fingerprint: a.fingerprint });
  },

  stop: (p: HomePaths, a: { id: string; timeout?: string; force?: boolean }) =>
    call(p, 'stop', { id: a.id, timeoutMs: parseDuration(a.timeout ?? '30s', '--timeout'), force: a.force === true }),
  // The caller's PATH goes along: gh and no-mistakes are looked up with it (installed after the daemon started counts).
  // acceptAgentSettings: the person's --accept-agent-settings (the MCP tools never pass it: cli/mcp/server.ts).
  land: (p: HomePaths, a: { id: string; acceptAgentSettings?: boolean; rebase?: boolean }) => call(p, 'land', { id: a.id, path: cliEnv().PATH ?? '', ...(a.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}), ...(a.rebase === true ? { rebase: true } : {}) }),
  approve: (p: HomePaths, a: { id: string; acceptAgentSettings?: boolean }) => call(p, 'approve', { id: a.id, path: cliEnv().PATH ?? '', ...(a.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}) }),
  reject(p: HomePaths, a: { id: string; reason: string }) {
    if (!a.reason?.trim()) throw new UsageError('missing-reason', 'a rejection needs a reason (--reason "…"): it is told to the worker and kept.');
    return call(p, 'reject', { id: a.id, reason: a.reason });
  },
  landings: (p: HomePaths) => call(p, 'landings'),
  survey: (p: HomePaths) => call(p, 'survey'),
  audience: (p: HomePaths, a: { since: number }) => call(p, 'audience', { since: a.since }),
  /** `hand doctor --calibrate`: the daemon drives each agent; its lines come as progress. */
  calibrate(p: HomePaths, a: { agent?: string; backend?: string; auto?: boolean }, onProgress?: (progress: CalibrateProgress) => void): Promise<CalibrateResult> {
    const agent = a.agent === undefined || a.agent === EVERY_AGENT ? EVERY_AGENT : isOneOf(AGENTS, a.agent) ? a.agent : null;
    if (agent === null) throw badAgent(a.agent!);
    if (a.backend !== undefined && a.backend !== 'tmux' && a.backend !== 'pty') {
      throw new UsageError('bad-backend', `--backend ${JSON.stringify(a.backend)}: a calibration runs its agents in tmux or pty`, { backend: a.backend });
    }
    const backend = a.backend as 'tmux' | 'pty' | undefined;
    return call(p, 'calibrate', { agent, ...(backend && { backend }), ...(a.auto ? { auto: true } : {}) }, onProgress ? { onProgress } : {});
  },
};
