/**
 * `hand mcp`: the fleet as MCP tools for the Hand's Claude Code session, over stdio, with the
 * official TypeScript SDK. Every tool calls the same operation as the CLI command of its name
 * (cli/hand-ops.ts), so a tool's result is the object `hand <command> --json` prints, and a
 * refusal is a tool error carrying the same message (and the same {error} object).
 * `wait` is long: it sends a progress notification on each change of the worker while it waits,
 * when the client asked for progress.
 */
import { HAND_CALLER_ENV } from '../../contract/hand-caller.ts';
import type { CalibrateProgress, WaitProgress } from '../../contract/methods.ts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { HandError, RefusedError } from '../../contract/errors.ts';
import type { HomePaths } from '../../contract/home.ts';
import { ops, POSTURES, AGENTS, BACKENDS, UNTILS } from '../hand-ops.ts';
import { buildDigest } from '../commands/digest.ts';
import { findWorkspace } from '../../io/workspace/layout.ts';
import { parseSince, sessionStart } from '../since.ts';
import { registerWorkTools } from './work-tools.ts';
import { BoundedStdioTransport } from './bounded-stdio.ts';

export interface McpOptions {
  paths: HomePaths;
  workspace: string | null;
}

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** The CLI's --json text of a value, as the tool's content; objects also as structured content. */
/**
 * A long tool's progress as MCP progress notifications (numbered 1, 2, …, each with `say`'s line),
 * when the client asked for them with a progress token; undefined when it did not. A notification
 * that cannot be sent is dropped: progress never fails the call.
 */
function progressTo<V>(extra: { _meta?: { progressToken?: string | number }; sendNotification(n: unknown): Promise<void> } | undefined, say: (v: V) => string): ((v: V) => void) | undefined {
  const token = extra?._meta?.progressToken;
  if (extra === undefined || token === undefined) return undefined;
  let n = 0;
  return (v) => {
    n += 1;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: n, message: say(v) } }).catch(() => undefined);
  };
}

export function toolResult(value: unknown): ToolResult {
  const res: ToolResult = { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
  if (value && typeof value === 'object' && !Array.isArray(value)) res.structuredContent = value as Record<string, unknown>;
  return res;
}

/** A refusal as the CLI reports it: the message as text, the --json {error} object as structured content. */
export function toolError(err: unknown): ToolResult {
  if (err instanceof HandError) {
    return { isError: true, content: [{ type: 'text', text: err.message }], structuredContent: { error: { code: err.code, message: err.message, ...err.details } } };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: 'text', text: `unexpected error: ${message}` }], structuredContent: { error: { code: 'internal', message } } };
}

async function run(fn: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return toolResult(await fn());
  } catch (err) {
    return toolError(err);
  }
}

const id = z.string().describe('worker id');

/**
 * The word on what a landing changes in the repository's own agent settings is the person's
 * alone (issue 37 item 3): the tools take no such word, and say so when asked to give one; a
 * daemon refusal for want of it tells the Hand to ask the person. The daemon enforces it too.
 */
const acceptAgentSettings = z.boolean().optional().describe("never yours to give: only the person accepts a change to the repository's agent settings (hand approve <id> --accept-agent-settings); set, the call is refused");

export async function withoutTheWord(workerId: string, asked: boolean | undefined, call: () => Promise<unknown>): Promise<unknown> {
  if (asked === true) {
    throw new RefusedError(
      'agent-settings-word-is-the-persons',
      `only the person can accept a change to the repository's own agent settings; no MCP tool gives that word. Tell the person what the change runs (hand land ${workerId} shows it) and ask them to run hand approve ${workerId} --accept-agent-settings themselves, or to confirm it on the review page. Nothing was landed.`,
      { id: workerId },
    );
  }
  try {
    return await call();
  } catch (err) {
    if (err instanceof HandError && err.code === 'agent-settings-need-word') {
      throw new RefusedError(err.code, `${err.message} You (the Hand) cannot give this word: quote the change to the person and ask them.`, err.details);
    }
    throw err;
  }
}

export function makeMcpServer(o: McpOptions): McpServer {
  const pkg = JSON.parse(readFileSync(join(KINGSHAND_ROOT, 'package.json'), 'utf8')) as { version: string };
  const server = new McpServer({ name: 'hand', version: pkg.version });
  const p = o.paths;
  const tool = <S extends z.ZodRawShape>(name: string, description: string, shape: S, fn: (args: z.objectOutputType<S, z.ZodTypeAny>, extra: any) => Promise<unknown>) =>
    server.registerTool(name, { description, inputSchema: shape }, ((args: any, extra: any) => run(() => fn(args, extra))) as any);

  tool('annex', 'Register a git repository as a project (hand annex).', {
    repo: z.string().describe('absolute path inside the repository'),
    name: z.string().optional(),
    posture: z.enum(POSTURES).optional().describe('default local-only'),
    yolo: z.boolean().optional().describe('skip the approval gates (default false)'),
    permissions: z.enum(['off', 'edits', 'ask']).optional().describe("workers' permission prompts (default off; kept on re-annex)"),
    agent: z.enum(AGENTS).optional().describe("the project's default agent: what dispatch runs without agent (default claude; kept on re-annex)"),
  }, (a) => ops.annex(p, a));
  tool('annex_propose', 'Before annex: the name and posture to propose for a repository (from its origin remote and what this machine can run) and what each posture needs; registers nothing (hand annex --propose).', {
    repo: z.string().describe('absolute path inside the repository'),
  }, (a) => ops.annexPropose(p, a));
  tool('projects', 'List registered projects (hand projects).', {}, () => ops.projects(p));
  // With item, the backlog item supplies the worker id, the project and the brief, as `hand dispatch --item`.
  tool('dispatch', 'Start a worker on a brief in its own worktree and terminal (hand dispatch). Give item (a backlog id: its project and brief are used, the item starts now and is done when the worker lands), or id, repo and brief. A non-yolo project holds it at the brief gate until approve.', {
    item: z.string().optional().describe('backlog item id the worker takes'),
    id: z.string().optional().describe('worker id: letters, digits, - and _ (default with item: the item id)'),
    repo: z.string().optional().describe('registered repository path (default with item: its project)'),
    brief: z.string().optional().describe('path of the brief file (default with item: its brief)'),
    readPaths: z.array(z.string()).optional(),
    agent: z.enum(AGENTS).optional().describe("default: the project's default agent, else claude (the answer's agentChosenBy says which)"),
    backend: z.enum(BACKENDS).optional().describe('default tmux'),
    stall: z.string().optional().describe('stall threshold, e.g. 20m'),
    env: z.array(z.string()).optional().describe('KEY=VALUE pairs for the worker'),
    host: z.string().optional().describe("where it runs: a host from the hosts tool (default: the project's default host, else local)"),
    strict: z.boolean().optional().describe('refuse an agent whose installed version failed its calibration (default: dispatch with a warning)'),
    quick: z.boolean().optional().describe('a quick dispatch (parley): no review gate; its pull request is a draft kingshand never merges'),
    readOnly: z.boolean().optional().describe('a read-only worker (counsel): it reads and reports, nothing lands; close ends it'),
  }, (a) => ops.dispatch(p, a));
  tool('approve', "Approve a worker's open gate, on the person's word only (hand approve). A landing that changes the repository's agent settings needs the person's own --accept-agent-settings: this tool cannot give it.", { id, accept_agent_settings: acceptAgentSettings }, (a) =>
    withoutTheWord(a.id, a.accept_agent_settings, () => ops.approve(p, { id: a.id })),
  );
  tool('reject', "Reject a worker's open gate with the person's reason (hand reject).", { id, reason: z.string() }, (a) => ops.reject(p, a));
  tool('status', 'One row per worker: stage, screen state, prompt box, liveness, report (hand status).', { id: z.string().optional() }, (a) => ops.status(p, a));
  tool('wait', 'Block until the worker settles, blocks, stalls or exits (hand wait). A blocked result quotes the question. Sends progress while waiting.', {
    id,
    until: z.enum(UNTILS).optional().describe('default any'),
    timeout: z.string().optional().describe('default 30m'),
  }, (a, extra) => ops.wait(p, a, progressTo<WaitProgress>(extra, (v) => `${a.id} ${v.stage} (${v.state}) · ${v.lastActivity}`)));
  tool('read', "The worker's visible screen (hand read).", { id, scrollback: z.number().int().positive().optional() }, (a) => ops.read(p, a));
  tool('report', "The worker's report, quoted as its words (hand report): no file read of your own, no permission prompt. state absent/refused says why there is none.", { id }, (a) => ops.report(p, a));
  tool('send', "Type a line into the worker and press Enter (hand send). Only the person's words. Refused when its input box holds text, and when a menu or dialog waits on the screen: a menu or dialog is answered only with answer or keys (one key per call), with the person's answer only; a parked decision only with hand decide.", {
    id, text: z.string(), allowNonEmptyBox: z.boolean().optional(),
  }, (a) => ops.send(p, a));
  tool('keys', "Press exactly one key in the worker (hand keys): enter, escape, up, down, left, right, tab, space, backspace, ctrl-c, or one character. One key per call; read the screen between. In a menu or dialog, only to carry out the person's answer.", {
    id, key: z.string(), allowNonEmptyBox: z.boolean().optional(),
  }, (a) => ops.keys(p, a));
  tool('answer', "Select the person's choice in the menu or dialog on a worker's screen (hand answer): the option's number and the dialog.fingerprint you read (read, status or wait). Presses the keys one per call, reading the screen back between; refused when the dialog changed. Only the person's answer, never your own. A free-text option (\"Type something\") is only reached: then send the person's words. A parked decision is answered only with hand decide.", {
    id, option: z.number().int().positive(), fingerprint: z.string(),
  }, (a) => ops.answer(p, a));
  tool('stop', 'End the worker cleanly: Escape, then /exit; never a kill (hand stop).', { id, timeout: z.string().optional() }, (a) => ops.stop(p, a));
  tool('land', "Gather a finished worker's landing evidence and open its landing gate (hand land). The evidence names any change to the repository's agent settings (hooks, MCP servers, allow rules): only the person accepts it. When the base moved on since the branch was cut, the refusal says whether it applies cleanly: rebase: true (on the person's word) rebases it first.", { id, accept_agent_settings: acceptAgentSettings, rebase: z.boolean().optional().describe("the person's yes to rebasing the branch onto the base that moved on (clean only; no merge commit, nothing forced)") }, (a) =>
    withoutTheWord(a.id, a.accept_agent_settings, () => ops.land(p, { id: a.id, ...(a.rebase === true ? { rebase: true } : {}) })),
  );
  tool('digest', 'The session-start digest again: projects, workers, what waits on the person, memory budget, index drift (hand digest).', {}, () =>
    buildDigest(p, findWorkspace(o.workspace ?? undefined)),
  );
  tool('survey', 'The whole picture, read-only: needs you, recently landed, underway, next (hand survey).', {}, () => ops.survey(p));
  tool('audience', 'What happened since a time, per worker, newest last (hand audience). since: ISO time, epoch ms or a duration back (2h).', {
    since: z.string().optional().describe('e.g. 2h or 2026-12-01T08:00Z; default: the start of this Hand session'),
  }, (a) => ops.audience(p, { since: a.since ? parseSince(a.since) : sessionStart(p).since }));
  tool('calibrate', "Whether kingshand still reads each installed agent CLI right (hand doctor --calibrate): drives it, in a scratch worktree against a fake model API on 127.0.0.1, through first start, typed text, idle, working, a finished turn, a permission dialog, a question menu, an API error and exit, and says per situation what the screen reader and the hook witness said. About a minute per agent; sends progress. A failed agent's screens are saved for a bug report, and its dispatch warns.", {
    agent: z.enum(['claude', 'codex', 'gemini', 'opencode', 'qwen', 'all']).optional().describe('default all installed'),
    auto: z.boolean().optional().describe('only the agents whose installed version was not calibrated yet'),
  }, (a, extra) => ops.calibrate(p, a, progressTo<CalibrateProgress>(extra, (v) => `${v.agent}: ${v.line}`)));
  // Backlog, decisions, away mode, relaunch, discard, usage, notifications, the review URL.
  registerWorkTools(tool, p);
  return server;
}

/** Serves until the client closes stdin. */
export async function serveMcp(o: McpOptions): Promise<void> {
  // Every request this server makes is the Hand's: the person's own settings are refused to it.
  process.env[HAND_CALLER_ENV] = 'hand';
  const server = makeMcpServer(o);
  // bounded, and answering junk with JSON-RPC errors (bounded-stdio.ts says why not the SDK's)
  const transport = new BoundedStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
}
