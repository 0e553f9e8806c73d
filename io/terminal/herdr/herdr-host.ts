/**
 * TerminalHost on herdr (https://herdr.dev), driven through its CLI and socket API as documented
 * in reference/herdr.md and kingshand-control-plane.md §1:
 *
 * - per-call verbs (reads, keys, text, the typed launch line, pane get/list/rename, close) go
 *   over the socket, the rest (server, workspace create, agent start/get, observe) through the
 *   CLI: a CLI call is a process start (docs/2026-12-02-herdr-reads-over-the-socket.md);
 * - every worker in its own workspace created with `--no-focus`, never `pane split` (§2.9);
 * - the program is started from the pane's shell under exactly its environment (launch-line.ts);
 *   a bare agent command such as `claude` goes through `agent start`, whose error is re-read
 *   with `agent get` because it can fail while the agent did register (folder trust →
 *   `agent_not_ready`);
 * - the visible viewport (`source: visible`) is the only read that is classified;
 * - one key per `pane.send_keys`; text then a separate Enter;
 * - `status --json` gives the three-valued server state;
 * - events: see pane-watch.ts. Panes live in the herdr server and outlive us.
 *
 * herdr sizes panes from its server config (`[server] headless_cols/rows`), not per pane: when
 * this host starts the server it writes that config; a pane always has the server's size.
 */
import { RefusedError } from '../../../contract/errors.ts';
import { parseAnsi } from '../../screen/index.ts';
import { PaneEventBus } from '../pane-events.ts';
import { checkPaneSpec, DEFAULT_COLS, DEFAULT_ROWS } from '../pane-spec.ts';
import type { Key, ListResult, PaneEvent, PaneInfo, PaneSubscribeOptions, PaneSpec, ReadResult, SendTextOptions, TerminalHost, TextResult } from '../types.ts';
import { PARENT_SESSION_MARKERS } from '../worker-env.ts';
import { HERDR_AGENT_KINDS, herdrAgentName } from './agent-name.ts';
import { HerdrError, outcomeOf, readTextOf, replyResultOf, resultOf } from './envelope.ts';
import { herdrArgs, runHerdr, type HerdrContext } from './herdr-cli.ts';
import { herdrRequests, paneNotFound, resolveSocketPath, socketRequest, type PaneReadReply } from './herdr-socket.ts';
import { assertLaunchable, exitCodeFromTitle, LAUNCH_VARIABLE, launchCommand, TYPED_LAUNCH } from './launch-line.ts';
import { PaneWatch } from './pane-watch.ts';
import { launchEnvFiles, type LaunchEnvFiles } from '../launch-env-file.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHerdrServer, herdrServerState, stopHerdrServer } from './server-control.ts';
import { ANSWER_BOUND_MS, createAnswerWatch, NoAnswer } from '../server-answers.ts';

export interface HerdrHostOptions {
  /** The herdr executable (absolute path, or a name on PATH). */
  herdrBin: string;
  /** Server socket; default: herdr's own resolution (HERDR_SOCKET_PATH, HERDR_SESSION, ~/.config). */
  socketPath?: string;
  /** Environment of herdr invocations and of a server this host starts; default process.env. */
  env?: Record<string, string | undefined>;
  /** Where ensureServer() writes the server config; without it a started server uses its own. */
  stateDir?: string;
  /** Pane size of a server this host starts (herdr's headless size); default 120×40. */
  cols?: number;
  rows?: number;
  /** `agent start --timeout`; default 90 000 ms (what kingshand's dispatch passes). */
  agentStartTimeoutMs?: number;
  /** How long ensureServer() waits for a started server to answer; default 30 s. */
  serverStartTimeoutMs?: number;
  /** Pause between text and its Enter (a TUI reads an Enter in the same chunk as paste); default 300 ms. */
  submitDelayMs?: number;
  /** `changed` coalescing window; default 20 ms. */
  coalesceMs?: number;
  /** Where a worker's environment waits (0600) for its launcher; default `<stateDir>/launch`, else a private temp directory. */
  launchDir?: string;
  /** How long the server may stay silent before its workers are "could not tell" (server-answers.ts); default 5 s. */
  answerBoundMs?: number;
}

export interface HerdrHost extends TerminalHost {
  readonly backend: 'herdr';
  readonly socketPath: string;
  /** `herdr server stop`: ends the server and every pane on it (tests, uninstall). */
  stopServer(): Promise<void>;
}

/** Workspaces we create carry this label; list() shows only panes in them. */
export const WORKSPACE_LABEL = 'kingshand';
/** Text up to this size without a newline is typed as raw bytes; longer goes in as a paste. */
const RAW_TEXT_LIMIT = 512;

interface HerdrPaneRecord {
  pane_id: string;
  workspace_id: string;
  label?: string;
  terminal_title?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

export function createHerdrHost(options: HerdrHostOptions): HerdrHost {
  const baseEnv = definedEnv(options.env ?? process.env);
  const socketPath = options.socketPath ?? resolveSocketPath(baseEnv);
  const ctx: HerdrContext = { bin: options.herdrBin, env: { ...baseEnv, HERDR_SOCKET_PATH: socketPath } };
  const cols = options.cols ?? DEFAULT_COLS;
  const rows = options.rows ?? DEFAULT_ROWS;
  const bus = new PaneEventBus(options.coalesceMs ?? 20);
  const watches = new Map<string, PaneWatch>();
  const agentLaunched = new Set<string>();
  let disposed = false;

  const herdr = (args: readonly string[], timeoutMs?: number) => runHerdr(ctx, args, timeoutMs);
  const ask = <T = Record<string, unknown>>(request: readonly [string, Record<string, unknown>]) =>
    socketRequest<T>(socketPath, request[0], request[1]);
  /** Frames observed: proof the server is alive (server-answers.ts counts, never times, them). */
  let heard = 0;
  // Whether the server answers (issue 38 item 8): its frames prove it; when none came for half
  // the bound it is pinged over the socket, the ping bounded by half the bound.
  const answers = createAnswerWatch({
    boundMs: options.answerBoundMs ?? ANSWER_BOUND_MS,
    what: 'the herdr server',
    activity: () => heard,
    watching: () => watches.size > 0,
    ask: async (timeoutMs) => {
      const pong = await socketRequest(socketPath, 'ping', {}, timeoutMs);
      if (!pong.ok) throw pong.error.code === 'timeout' ? new NoAnswer(pong.error.message) : new Error(`${pong.error.code}: ${pong.error.message}`);
    },
  });
  let launch: LaunchEnvFiles | null = null;
  const ownLaunchDir = !options.launchDir && !options.stateDir;
  const launchFiles = (): LaunchEnvFiles =>
    (launch ??= launchEnvFiles(options.launchDir ?? (options.stateDir ? join(options.stateDir, 'launch') : mkdtempSync(join(tmpdir(), 'kh-launch-')))));

  function watch(paneId: string): Promise<void> {
    if (disposed || watches.has(paneId) || bus.hasExited(paneId)) return Promise.resolve();
    const w = new PaneWatch(ctx, socketPath, paneId, {
      changed: () => {
        heard++;
        bus.touch(paneId);
      },
      title: (title) => bus.emit(paneId, { type: 'title', title }),
      exited: (code) => {
        watches.delete(paneId);
        bus.exit(paneId, code);
      },
    }, { cols, rows, agentLaunched: agentLaunched.has(paneId) });
    watches.set(paneId, w);
    return w.start();
  }

  function toPaneInfo(p: HerdrPaneRecord): PaneInfo {
    const code = exitCodeFromTitle(p.terminal_title);
    return {
      paneId: p.pane_id,
      name: p.label ?? p.pane_id,
      alive: code === null ? true : false,
      exitCode: code,
      cols,
      rows,
      survivesRestart: true,
    };
  }

  /**
   * A pane's environment: spec.env, plus every parent-session marker blanked. herdr composes a
   * pane's environment from the server's plus `--env`, and `--env` can only set, not unset; a
   * server we did not start may carry the markers (control-plane §2.7).
   */
  function paneEnv(env: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of PARENT_SESSION_MARKERS) if (!(key in env)) out[key] = '';
    return { ...out, ...env };
  }

  /** A bare agent command (`claude`) starts through `agent start`; anything else is typed. */
  function agentKindOf(argv: readonly string[]): string | null {
    return argv.length === 1 && HERDR_AGENT_KINDS.includes(argv[0]!) ? argv[0]! : null;
  }

  async function startProgram(paneId: string, agent: { kind: string; name: string } | null): Promise<void> {
    if (!agent) {
      replyResultOf('pane.send_input', await ask(herdrRequests.runLine(paneId, TYPED_LAUNCH)));
      return;
    }
    const timeoutMs = options.agentStartTimeoutMs ?? 90_000;
    const started = outcomeOf(await herdr(herdrArgs.agentStart(agent.name, agent.kind, paneId, timeoutMs), timeoutMs + 15_000));
    if (started.ok) return;
    // `agent start` can fail while the agent registered (a startup dialog: agent_not_ready):
    // re-read once rather than trust the exit status (control-plane §1.2).
    const again = outcomeOf<{ agent?: unknown }>(await herdr(herdrArgs.agentGet(agent.name)));
    if (again.ok && again.result.agent) return;
    throw new HerdrError('agent start', started.error.code, started.error.message);
  }

  /**
   * Labels the pane with the worker's name over the socket; the reply's pane must carry the label,
   * else (a herdr that names the param otherwise, or refuses it) the documented CLI does it.
   */
  async function rename(paneId: string, label: string): Promise<void> {
    const renamed = await ask<{ pane?: { label?: unknown } }>(herdrRequests.paneRename(paneId, label));
    if (renamed.ok && renamed.result.pane?.label === label) return;
    resultOf('pane rename', await herdr(herdrArgs.paneRename(paneId, label)));
  }

  async function sendKey(paneId: string, key: Key): Promise<void> {
    replyResultOf('pane.send_keys', await ask(herdrRequests.sendKey(paneId, key)));
  }

  async function typeText(paneId: string, text: string): Promise<void> {
    if (text.length === 0) return;
    if (text.length <= RAW_TEXT_LIMIT && !/[\r\n]/.test(text)) {
      replyResultOf('pane.send_text', await ask(herdrRequests.sendText(paneId, text)));
      return;
    }
    // Long or multi-line text goes in as one paste (bracketed when the app asked for it): raw
    // newlines would submit line by line.
    replyResultOf('pane.send_input', await ask(herdrRequests.pasteText(paneId, text)));
  }

  const host: HerdrHost = {
    backend: 'herdr',
    survivesRestart: true,
    socketPath,

    serverState: () => herdrServerState(ctx),

    async ensureServer(): Promise<void> {
      await ensureHerdrServer(ctx, socketPath, {
        cols,
        rows,
        ...(options.stateDir !== undefined && { stateDir: options.stateDir }),
        ...(options.serverStartTimeoutMs !== undefined && { timeoutMs: options.serverStartTimeoutMs }),
      });
    },

    async createPane(spec: PaneSpec): Promise<PaneInfo> {
      const checked = checkPaneSpec(spec);
      // Refusals before side effects: everything that can be refused is checked here.
      assertLaunchable(checked.argv);
      const kind = agentKindOf(checked.argv);
      const agent = kind ? { kind, name: herdrAgentName(checked.name) } : null;
      if (checked.cols !== cols || checked.rows !== rows) {
        throw new RefusedError('herdr-pane-size', `herdr sizes every pane from its server config (${cols}x${rows}); a ${checked.cols}x${checked.rows} pane cannot be made`);
      }
      // A typed launch runs under exactly spec.env (launch-line.ts); herdr's own `agent start`
      // cannot, so its pane environment at least has the parent-session markers blanked.
      // The typed launch's environment travels in a 0600 file its launcher reads and deletes: as
      // `--env KEY=VAL` arguments of the herdr CLI it was world-readable in /proc/<pid>/cmdline.
      // (herdr's own `agent start` can only take the pane environment: that path still passes it.)
      const env = agent ? paneEnv(checked.env) : { ...paneEnv({}), [LAUNCH_VARIABLE]: launchCommand(launchFiles().argvFor(checked.env, checked.argv).argv) };
      const created = resultOf<{ root_pane?: { pane_id?: string } }>('workspace create', await herdr(herdrArgs.workspaceCreate({
        cwd: checked.cwd, label: WORKSPACE_LABEL, env,
      })));
      const paneId = created.root_pane?.pane_id;
      if (!paneId) throw new HerdrError('workspace create', 'transport', 'reply has no root_pane.pane_id');
      try {
        await rename(paneId, checked.name);
        if (agent) agentLaunched.add(paneId);
        await watch(paneId);
        await startProgram(paneId, agent);
      } catch (err) {
        await host.close(paneId).catch(() => {});
        throw err;
      }
      return { paneId, name: checked.name, alive: bus.hasExited(paneId) ? false : true, exitCode: null, cols, rows, survivesRestart: true };
    },

    async attach(paneId: string): Promise<PaneInfo | null> {
      const got = await ask<{ pane?: HerdrPaneRecord }>(herdrRequests.paneGet(paneId));
      if (!got.ok) {
        // Only herdr saying "no such pane" is a missing pane; a socket nobody answers is not.
        if (paneNotFound(got.error)) return null;
        throw new HerdrError('pane.get', got.error.code, got.error.message);
      }
      if (!got.result.pane) return null;
      await watch(paneId);
      return toPaneInfo(got.result.pane);
    },

    async readVisible(paneId: string): Promise<ReadResult> {
      const read = readTextOf('pane.read', await ask<PaneReadReply>(herdrRequests.readVisible(paneId)));
      if (!read.ok) return read;
      return { ok: true, screen: parseAnsi(read.text, { cols, rows }) };
    },

    async readScrollback(paneId: string, lines: number): Promise<TextResult> {
      const n = Math.min(1000, Math.max(1, Math.floor(lines)));
      return readTextOf('pane.read', await ask<PaneReadReply>(herdrRequests.readScrollback(paneId, n)));
    },

    async sendText(paneId: string, text: string, o?: SendTextOptions): Promise<void> {
      await typeText(paneId, text);
      await sleep(options.submitDelayMs ?? 300);
      await o?.beforeEnter?.();
      await sendKey(paneId, 'enter');
    },

    typeText,
    sendKey,

    async resize(_paneId: string, newCols: number, newRows: number): Promise<void> {
      if (newCols === cols && newRows === rows) return;
      throw new RefusedError('herdr-resize-unsupported', 'herdr has no absolute pane resize: panes take the server\'s headless size');
    },

    async close(paneId: string): Promise<void> {
      const w = watches.get(paneId);
      watches.delete(paneId);
      await w?.stop();
      bus.forget(paneId);
      agentLaunched.delete(paneId);
      const closed = await ask(herdrRequests.paneClose(paneId));
      // Already gone, or no server (which ended every pane): nothing left to close.
      if (!closed.ok && !paneNotFound(closed.error) && !closed.unreachable) {
        throw new HerdrError('pane.close', closed.error.code, closed.error.message);
      }
    },

    async list(): Promise<ListResult> {
      const workspaces = await ask<{ workspaces?: Array<{ workspace_id: string; label?: string }> }>(herdrRequests.workspaceList());
      if (!workspaces.ok) {
        // Nobody serves the socket: what the CLI reports as server_not_running, and no server
        // holds no panes. Any other failure is "could not tell".
        if (workspaces.unreachable) return { ok: true, panes: [] };
        return { ok: false, error: `herdr workspace.list: ${workspaces.error.code} - ${workspaces.error.message}` };
      }
      const panes = await ask<{ panes?: HerdrPaneRecord[] }>(herdrRequests.paneList());
      if (!panes.ok) return { ok: false, error: `herdr pane.list: ${panes.error.code} - ${panes.error.message}` };
      if (!Array.isArray(workspaces.result.workspaces) || !Array.isArray(panes.result.panes)) {
        return { ok: false, error: 'herdr reply without workspaces/panes' };
      }
      const ours = new Set(workspaces.result.workspaces.filter((w) => w.label === WORKSPACE_LABEL).map((w) => w.workspace_id));
      return { ok: true, panes: panes.result.panes.filter((p) => ours.has(p.workspace_id)).map(toPaneInfo) };
    },

    watchAnswers: (listener) => answers.subscribe(listener),

    subscribe(paneId: string, listener: (event: PaneEvent) => void, options?: PaneSubscribeOptions): () => void {
      const unsubscribe = bus.subscribe(paneId, listener, options);
      // A pane created by an earlier process: start watching on first interest.
      void watch(paneId).catch(() => {});
      return unsubscribe;
    },

    async dispose(): Promise<void> {
      disposed = true;
      answers.dispose();
      const stopping = [...watches.values()].map((w) => w.stop());
      watches.clear();
      await Promise.all(stopping);
      bus.clear();
      if (launch && ownLaunchDir) rmSync(launch.dir, { recursive: true, force: true });
    },

    async stopServer(): Promise<void> {
      await host.dispose();
      await stopHerdrServer(ctx, socketPath);
    },
  };
  return host;
}
