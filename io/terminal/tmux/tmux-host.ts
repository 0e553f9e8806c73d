/**
 * TerminalHost on a private tmux server (the default on Linux/macOS).
 *
 * - One session with one window per worker, created at a fixed size and never split: narrow
 *   panes blind every classifier (control-plane §2.9).
 * - The worker starts under `env -i KEY=VAL … argv`, so it gets exactly spec.env; whatever the
 *   tmux server inherited when it started (possibly days ago) never reaches a worker.
 * - `remain-on-exit` keeps the last screen and the exit status; ONE control-mode client, attached
 *   to a monitor session into which every worker's window is linked, pushes `%output`
 *   (→ `changed`) and a `pane_dead` subscription (→ `exited`). One client, connected once, with
 *   structure changes kept away from its connect: tmux 3.3a crashes otherwise (structure-gate.ts).
 * - `capture-pane -p -e` is the authority for the visible screen.
 * - Panes outlive us: `attach(paneId)` picks a worker up again after our process restarted.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAnsi } from '../../screen/index.ts';
import { assertKey, tmuxSendKeysArgs, typeThenSubmit } from '../keys.ts';
import { PaneEventBus } from '../pane-events.ts';
import { checkPaneSpec, findEnvBin } from '../pane-spec.ts';
import { launchEnvFiles } from '../launch-env-file.ts';
import type { Key, ListResult, PaneEvent, PaneInfo, PaneSubscribeOptions, PaneSpec, ReadOptions, ReadResult, SendTextOptions, ServerState, TerminalHost, TextResult } from '../types.ts';
import { ATTACH_FORMAT, describePane, NAME_OPTION, PANE_FORMAT, parseAttachList, parsePaneList, publicInfo, serverSettingsArgs, sessionNameFor, type TmuxPane } from './pane-info.ts';
import { ControlClosedError } from './control-client.ts';
import { counts, trace } from '../trace-timing.ts';
import { PaneWatchers } from './pane-watchers.ts';
import { ReadLanes } from './read-lanes.ts';
import { runTmux, TmuxCommandError, tmuxLiteral, type TmuxContext } from './tmux-command.ts';
import type { SshTarget } from '../../ssh/ssh-command.ts';
import { closeMaster, runRemote } from '../../ssh/run-remote.ts';
import { remoteLaunchEnv } from '../../ssh/remote-launch-env.ts';
import { ANSWER_BOUND_MS, createAnswerWatch, NoAnswer } from '../server-answers.ts';

/**
 * How long start-server tries again while the server before it is still going away
 * (ensureServer): a far server killed under load held its socket for more than the 150 ms that
 * three tries gave it. Only that one answer is tried again.
 */
const START_RETRY_MS = 5_000;

export interface TmuxHostOptions {
  /** Socket of the private server, e.g. `<state dir>/tmux.sock` (its directory is created). */
  socketPath: string;
  /** tmux executable; default "tmux". */
  tmuxBin?: string;
  /** env(1) used to start workers with exactly their environment; default /usr/bin/env or /bin/env. */
  envBin?: string;
  /** `changed` coalescing window; default 20 ms. */
  coalesceMs?: number;
  /** Pause between the text and its Enter in sendText (see typeThenSubmit); default 200 ms. */
  submitDelayMs?: number;
  /** Text longer than this (or multi-line) goes through a tmux buffer as a paste; default 512. */
  pasteThreshold?: number;
  /** Where a worker's environment waits (0600) for its launcher; default `<socket dir>/launch`. */
  launchDir?: string;
  /** Things a person reading the log should know (the control client lost, and why; the server gone). */
  onNotice?: (message: string, fields: Record<string, unknown>) => void;
  /**
   * The server runs on another machine, reached through this target's one multiplexed ssh
   * connection; socketPath, launchDir and every pane's cwd are paths on that machine.
   */
  ssh?: SshTarget;
  /** How long the server may stay silent before its workers are "could not tell" (server-answers.ts); default 5 s. */
  answerBoundMs?: number;
  /** What the reason calls the server; default "the tmux server". */
  serverName?: string;
  /** Screen reads queued in the server at once (read-lanes.ts); default READS_IN_FLIGHT. Infinity: unbounded and unordered, as before issue 46 (the bench's baseline). */
  readsInFlight?: number;
  /** Key each `%output` line on its own, as before issue 46 (the bench's baseline); default: a key per burst, across tmux's pieces (repaint-key.ts). */
  repaintKeyPerLine?: boolean;
}

export interface TmuxHost extends TerminalHost {
  readonly backend: 'tmux';
  readonly socketPath: string;
  /** Kills the whole private server and every pane on it (tests, uninstall). */
  killServer(): Promise<void>;
  /** How pane exits were looked for: `#{pane_dead}` asked after quiet output, deaths heard from a hook's echo, and probe timer wakes. */
  exitChecks(): { asked: number; echoed: number; looked: number };
  /** How many times a pouring pane's output was paused for our client (pour-hush.ts). */
  hushes(): number;
  /** How many times the server was asked whether it answers (server-answers.ts): only while it was silent. */
  answerChecks(): { asked: number };
}

const PANE_ID = /^%\d+$/;
/** How long what prepareAttach learnt stands in for asking: a resume's attaches follow at once. */
const PREPARED_MS = 10_000;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createTmuxHost(options: TmuxHostOptions): TmuxHost {
  const ssh = options.ssh;
  const ctx: TmuxContext = { bin: options.tmuxBin ?? 'tmux', socketPath: options.socketPath, ...(ssh && { ssh }) };
  // Far side: Debian's and macOS's env(1); this machine's layout says nothing about that one.
  const envBin = options.envBin ?? (ssh ? '/usr/bin/env' : findEnvBin());
  const submitDelayMs = options.submitDelayMs ?? 200;
  const pasteThreshold = options.pasteThreshold ?? 512;
  // A burst's key is taken from its pane's watch when the burst ends: the same frame, however tmux cut it.
  const bus: PaneEventBus = new PaneEventBus(
    options.coalesceMs ?? 20,
    (paneId): number | undefined => watchers.takeBurstKey(paneId),
    (paneId, poured) => watchers.announced(paneId, poured),
  );
  const watchers: PaneWatchers = new PaneWatchers(ctx, bus, envBin, options.onNotice, options.repaintKeyPerLine);
  /** Reads waiting in tmux's reply queue, bounded, foreground first (read-lanes.ts). */
  const lanes = new ReadLanes(options.readsInFlight);
  let disposed = false;
  let pasteCounter = 0;
  /** What prepareAttach learnt of each pane, taken (once, within PREPARED_MS) by its attach. */
  const prepared = new Map<string, { pane: TmuxPane; windowId: string; inMonitor: boolean; at: number }>();
  const launchDir = options.launchDir ?? join(dirname(options.socketPath), 'launch');
  const launch = launchEnvFiles(launchDir);
  // Whether the server answers (issue 38 item 8): what its control client reads proves it; when
  // nothing came for half the bound it is asked one control-mode command (no process), or with no
  // client up one bounded spawned command. A SIGSTOPped server leaves the command unanswered.
  const answers = createAnswerWatch({
    boundMs: options.answerBoundMs ?? ANSWER_BOUND_MS,
    what: options.serverName ?? 'the tmux server',
    activity: () => watchers.activity,
    watching: () => watchers.watchedCount > 0,
    ask: async (timeoutMs) => {
      const client = watchers.client;
      if (client) return client.command(`display-message -p '#{pid}'`);
      return runTmux(ctx, ['list-sessions', '-F', '#{pid}'], undefined, timeoutMs).catch((err: unknown) => {
        // Killed at its bound: no answer, which the reason says already. Anything else (ssh refused) is told.
        throw err instanceof TmuxCommandError && err.exitCode === undefined && /^killed/.test(err.stderr) ? new NoAnswer(err.message) : err;
      });
    },
  });

  /** The environment file and launcher argv, here or (over ssh's stdin) on the far side. */
  async function startWith(env: Record<string, string>, argv: readonly string[]): Promise<{ argv: string[]; discard(): Promise<void> }> {
    if (ssh) return remoteLaunchEnv(ssh, launchDir, env, argv);
    const started = launch.argvFor(env, argv);
    return { argv: started.argv, discard: async () => rmSync(started.file, { force: true }) };
  }

  const tmux = (args: readonly string[], input?: string) => runTmux(ctx, args, input);

  function checkPaneId(paneId: string): void {
    if (!PANE_ID.test(paneId)) throw new Error(`not a tmux pane id: ${JSON.stringify(paneId)}`);
  }

  const describe = (paneId: string) => describePane(ctx, paneId, watchers.run);

  type RawRead = { ok: true; text: string; size: { cols: number; rows: number } } | { ok: false; error: string };

  function parseSize(line: string | undefined): { cols: number; rows: number } | null {
    const [cols, rows] = (line ?? '').split(' ').map((n) => Number.parseInt(n, 10));
    return Number.isFinite(cols) && Number.isFinite(rows) && cols! > 0 && rows! > 0 ? { cols: cols!, rows: rows! } : null;
  }

  /**
   * The visible screen as two commands on an open control client (no process spawn: spawning
   * `tmux` per read was half the daemon's CPU, docs/2026-11-30-tmux-reads-over-control-mode.md).
   * Both lines are written at once and answered in order. Null when no client is up (or it went
   * away mid-read): the caller spawns instead. A `%error` reply is a failed read, never a screen.
   */
  async function readOverControl(paneId: string): Promise<RawRead | null> {
    const client = watchers.client;
    if (!client) return null;
    try {
      counts.reads++;
      trace(paneId, 'read-sent');
      const [sizeLines, screenLines] = await Promise.all(
        client.commands([`display-message -p -t ${paneId} '#{pane_width} #{pane_height}'`, `capture-pane -p -e -t ${paneId}`]),
      );
      trace(paneId, 'read-reply', { menu: screenLines.some((l) => l.includes('Postgres')) });
      counts.replyBytes += screenLines.reduce((a, l) => a + l.length + 1, 0);
      const size = parseSize(sizeLines[0]);
      if (!size || sizeLines.length !== 1) return { ok: false, error: `unexpected tmux reply for ${paneId}: ${JSON.stringify(sizeLines)}` };
      // Same text as the spawned read: every row ends in a newline (without the last one, an
      // empty bottom row would be dropped by the parser and the screen would be a row short).
      return { ok: true, text: screenLines.map((l) => `${l}\n`).join(''), size };
    } catch (err) {
      if (err instanceof ControlClosedError) return null;
      return { ok: false, error: errorText(err) };
    }
  }

  /** The same read as one spawned tmux invocation (fallback when no control client is up). */
  async function readBySpawn(paneId: string): Promise<RawRead> {
    const out = await tmux([
      'display-message', '-p', '-t', paneId, '#{pane_width} #{pane_height}', ';',
      'capture-pane', '-p', '-e', '-t', paneId,
    ]);
    const nl = out.indexOf('\n');
    const size = nl < 0 ? null : parseSize(out.slice(0, nl));
    if (!size) return { ok: false, error: `unexpected tmux output for ${paneId}` };
    return { ok: true, text: out.slice(nl + 1), size };
  }

  async function typeText(paneId: string, text: string): Promise<void> {
    checkPaneId(paneId);
    if (text.length === 0) return;
    if (text.length <= pasteThreshold && !/[\r\n]/.test(text)) {
      // Over the control client when it is up, in order with the reads of the same pane.
      await watchers.run(['send-keys', '-t', paneId, '-l', '--', text]);
      return;
    }
    // Large or multi-line text: a tmux client message is limited (~16 KB), so the text goes in
    // through stdin into a private buffer and is pasted — bracketed (-p) when the app asked for
    // bracketed paste, LF sent as CR like any terminal paste, buffer deleted afterwards (-d).
    const buffer = `kh-paste-${process.pid}-${++pasteCounter}`;
    await tmux(['load-buffer', '-b', buffer, '-', ';', 'paste-buffer', '-p', '-d', '-b', buffer, '-t', paneId], text);
  }

  async function sendKey(paneId: string, key: Key): Promise<void> {
    checkPaneId(paneId);
    assertKey(key);
    await watchers.run(['send-keys', '-t', paneId, ...tmuxSendKeysArgs(key)]);
  }

  const host: TmuxHost = {
    backend: 'tmux',
    survivesRestart: true,
    socketPath: options.socketPath,

    async ensureServer() {
      if (ssh) await runRemote(ssh, ['mkdir', '-p', '-m', '700', '--', dirname(options.socketPath)]);
      else mkdirSync(dirname(options.socketPath), { recursive: true, mode: 0o700 });
      const giveUpAt = Date.now() + START_RETRY_MS;
      for (let pause = 50; ; pause = Math.min(pause * 2, 400)) {
        try {
          await tmux(['start-server', ';', ...serverSettingsArgs().slice(0, -1)]);
          return;
        } catch (err) {
          // A server killed a moment ago may still hold the socket as it goes: the new client
          // reaches it and it exits under it ("server exited unexpectedly"). A later start finds
          // the socket free (seen over ssh, a far server killed by its own account just before).
          if (!(err instanceof TmuxCommandError && err.serverWentAway) || Date.now() + pause > giveUpAt) throw err;
          await new Promise((r) => setTimeout(r, pause));
        }
      }
    },

    async serverIdentity(): Promise<string | null> {
      try {
        const first = (await watchers.run(['list-sessions', '-F', '#{pid}.#{start_time}'])).split('\n')[0]?.trim() ?? '';
        return /^\d+\.\d+$/.test(first) ? first : null;
      } catch {
        return null;
      }
    },

    async serverState(): Promise<ServerState> {
      try {
        await watchers.run(['list-sessions', '-F', '#{session_id}']);
        return { state: 'running' };
      } catch (err) {
        if (err instanceof TmuxCommandError && err.noServer) return { state: 'stopped' };
        return { state: 'unknown', detail: errorText(err) };
      }
    },

    async createPane(spec: PaneSpec): Promise<PaneInfo> {
      const checked = checkPaneSpec(spec, { localCwd: !ssh });
      // The server first, on its own: a tmux server keeps the argv of the client that forked it
      // as its command line for life, and `ps` must show no worker's launch there for as long as
      // the server runs. A live control client means the server runs already (no tmux started to
      // say so). The settings are repeated with the new-session in case the server restarted in between.
      if (!watchers.client) await host.ensureServer();
      // The monitor client first (once per host): no session may be created while it connects.
      await watchers.ensureMonitor();
      // The environment travels in a 0600 file the pane's launcher reads and deletes: as
      // arguments (`env -i KEY=VAL …`) it was world-readable in /proc/<pid>/cmdline.
      const started = await startWith(checked.env, checked.argv);
      const out = await watchers.gate.shared(() => tmux([
        ...serverSettingsArgs(),
        'new-session', '-d', '-s', sessionNameFor(checked.name),
        '-x', String(checked.cols), '-y', String(checked.rows), '-c', checked.cwd,
        '-P', '-F', '#{pane_id}',
        ...started.argv.map(tmuxLiteral), ';',
        // Per window, not global: `set -g window-size manual` crashes tmux 3.3a on new-session.
        // Manual = no client (a person attaching to look) ever resizes a worker.
        'set-option', '-w', 'window-size', 'manual', ';',
        'set-option', '-p', NAME_OPTION, tmuxLiteral(checked.name),
      ])).catch(async (err: unknown) => {
        await started.discard();
        throw err;
      });
      const paneId = out.trim();
      if (!PANE_ID.test(paneId)) throw new Error(`tmux new-session printed ${JSON.stringify(out)}`);
      // A new pane: an id remembered from a server that died (tmux numbers from %0 again) says
      // nothing about it — its sticky exit and old watch would report this live worker gone.
      watchers.forget(paneId);
      bus.forget(paneId);
      await watchers.watch(paneId);
      const info = await describe(paneId);
      return info
        ? publicInfo(info)
        : { paneId, name: checked.name, alive: null, exitCode: null, cols: checked.cols, rows: checked.rows, survivesRestart: true };
    },

    async attach(paneId: string): Promise<PaneInfo | null> {
      checkPaneId(paneId);
      // Told by prepareAttach's one listing, else asked over the control client once one is up
      // (no process per restored worker); the first attach asks by a spawned command, so a pane
      // that is not there starts nothing.
      const entry = prepared.get(paneId);
      prepared.delete(paneId);
      const known = entry && performance.now() - entry.at < PREPARED_MS ? entry : undefined;
      const pane = known?.pane ?? (await describe(paneId));
      if (!pane) return null;
      await watchers.watch(paneId, known && { windowId: known.windowId, inMonitor: known.inMonitor });
      return publicInfo(pane);
    },

    /**
     * One `list-panes -a` for a whole resume (issue 26: two round trips per restored pane, a
     * description and the link check, were most of resuming 500 workers). A pane missing from it
     * is still asked about by its own attach: only what the listing saw is taken from it.
     */
    async prepareAttach(paneIds: readonly string[]): Promise<void> {
      if (paneIds.length < 2) return;
      const wanted = new Set(paneIds.filter((p) => PANE_ID.test(p)));
      const out = await watchers.run(['list-panes', '-a', '-F', ATTACH_FORMAT]).catch(() => null);
      const found = out === null ? null : parseAttachList(out, wanted);
      const at = performance.now();
      prepared.clear();
      for (const [paneId, entry] of found ?? []) prepared.set(paneId, { ...entry, at });
    },

    async readVisible(paneId: string, opts?: ReadOptions): Promise<ReadResult> {
      try {
        checkPaneId(paneId);
        const background = opts?.background ?? (() => false);
        const raw = (await lanes.run(background, () => (opts?.started?.(), readOverControl(paneId)))) ?? (await readBySpawn(paneId));
        if (!raw.ok) return raw;
        const screen = parseAnsi(raw.text, raw.size);
        return watchers.hush.pouring(paneId) ? { ok: true, screen, pouring: true } : { ok: true, screen };
      } catch (err) {
        return { ok: false, error: errorText(err) };
      }
    },

    async readScrollback(paneId: string, lines: number): Promise<TextResult> {
      try {
        checkPaneId(paneId);
        const n = Math.max(1, Math.floor(lines));
        const out = await tmux(['capture-pane', '-p', '-J', '-S', String(-n), '-t', paneId]);
        const all = out.replace(/\n+$/, '').split('\n');
        return { ok: true, text: all.slice(-n).join('\n') };
      } catch (err) {
        return { ok: false, error: errorText(err) };
      }
    },

    sendText: (paneId: string, text: string, o?: SendTextOptions) => typeThenSubmit({ typeText, sendKey, subscribe: (p, l) => host.subscribe(p, l) }, paneId, text, submitDelayMs, o?.beforeEnter),

    typeText,
    sendKey,

    async resize(paneId: string, cols: number, rows: number): Promise<void> {
      checkPaneId(paneId);
      await tmux(['resize-window', '-t', paneId, '-x', String(cols), '-y', String(rows)]);
    },

    async close(paneId: string): Promise<void> {
      checkPaneId(paneId);
      await watchers.unwatch(paneId);
      bus.forget(paneId);
      try {
        await watchers.gate.shared(() => watchers.run(['kill-pane', '-t', paneId]));
      } catch (err) {
        if (!(err instanceof TmuxCommandError && (err.noTarget || err.noServer))) throw err;
      }
    },

    async list(): Promise<ListResult> {
      try {
        const out = await watchers.run(['list-panes', '-a', '-F', PANE_FORMAT]);
        const panes = parsePaneList(out);
        if (!Array.isArray(panes)) return { ok: false, error: `unexpected tmux list line ${JSON.stringify(panes.badLine)}` };
        return { ok: true, panes: panes.map(publicInfo) };
      } catch (err) {
        // A server that is certainly not running has certainly no panes.
        if (err instanceof TmuxCommandError && err.noServer) return { ok: true, panes: [] };
        // tmux 3.3 answers `list-panes -a` on a server without sessions with "no current target":
        // confirm there are no sessions rather than trusting the message.
        if (err instanceof TmuxCommandError && /no current target/.test(err.stderr)) {
          const sessions = await tmux(['list-sessions', '-F', '#{session_id}']).catch(() => null);
          if (sessions !== null && sessions.trim() === '') return { ok: true, panes: [] };
        }
        return { ok: false, error: errorText(err) };
      }
    },

    watchAnswers: (listener) => answers.subscribe(listener),

    subscribe(paneId: string, listener: (event: PaneEvent) => void, options?: PaneSubscribeOptions): () => void {
      const unsubscribe = bus.subscribe(paneId, listener, options);
      // A pane created by an earlier process: start watching it on first interest.
      if (!disposed && PANE_ID.test(paneId) && !watchers.isWatching(paneId)) {
        void host.attach(paneId).catch(() => {});
      }
      return unsubscribe;
    },

    async dispose(): Promise<void> {
      disposed = true;
      answers.dispose();
      await watchers.dispose();
      bus.clear();
      // The host owns its connection: the master leaves with it (panes on the far side stay).
      if (ssh) await closeMaster(ssh);
    },

    exitChecks: () => ({ ...watchers.exitChecks }),
    hushes: () => watchers.hush.paused,
    answerChecks: () => ({ asked: answers.asked }),

    async killServer(): Promise<void> {
      await host.dispose();
      try {
        await tmux(['kill-server']);
      } catch (err) {
        if (!(err instanceof TmuxCommandError && err.noServer)) throw err;
      }
      // kill-server answers before the server has gone: a client connecting in that moment gets
      // "server exited unexpectedly". Return only once the server is certainly not running.
      const deadline = Date.now() + 5_000;
      while ((await host.serverState()).state !== 'stopped') {
        if (Date.now() > deadline) throw new Error(`tmux server on ${options.socketPath} still answers 5 s after kill-server`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (ssh) await closeMaster(ssh); // the checks above reopened it
    },
  };
  return host;
}
