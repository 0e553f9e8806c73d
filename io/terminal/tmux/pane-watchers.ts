/**
 * Push events for tmux panes over ONE control-mode client per host, attached to the monitor
 * session into which every watched worker's window is linked (monitor-session.ts says why not
 * one client per worker). `%output` becomes `changed`, the `pane_dead` subscription `exited
 * {code}`, `%window-close` of a watched window (the pane killed under us) `exited {code: null}`.
 *
 * This file keeps the registry of watched panes and their windows, and the connection; when a
 * watched pane exited is pane-exit-watch.ts's (its quiet-output asks paced by exit-pacing.ts, the
 * hook's echo death-echo.ts's, the reap workaround reap-nudge.ts's), how a lost connection is
 * retried control-recovery.ts's, and commands due together are written together by
 * command-batcher.ts.
 */
import type { PaneEventBus } from '../pane-events.ts';
import { ControlClosedError, ControlCommandError, TmuxControlClient } from './control-client.ts';
import { quoteControlArg } from './control-protocol.ts';
import { awaitNoControlClients, ensureMonitorSession, linkIntoMonitor } from './monitor-session.ts';
import { StructureGate } from './structure-gate.ts';
import { CommandBatcher } from './command-batcher.ts';
import { recoverControl } from './control-recovery.ts';
import { DEAD_FORMAT, newPaneExit, PaneExitWatch, stopProbe, type PaneExit, type WatchedForExit } from './pane-exit-watch.ts';
import { runTmux, TmuxCommandError, type TmuxContext } from './tmux-command.ts';
import { RepaintKeyStream, repaintKey } from './repaint-key.ts';

interface Watch extends WatchedForExit {
  /** The pane's window once linked into the monitor session. */
  windowId: string | null;
  linking: Promise<void> | null;
  title: string | null;
  /** We are closing it: its window closing is not the worker vanishing. */
  closing: boolean;
  /** Its probe timer, reap wait and death hook (pane-exit-watch.ts). */
  exit: PaneExit;
  /** What it drew since its burst began, hashed across tmux's pieces (repaint-key.ts); taken when the burst ends. */
  keys: RepaintKeyStream;
}

const WINDOW_NOTIFICATION = /^%(?:window-close|unlinked-window-close|window-renamed|unlinked-window-renamed|layout-change|window-pane-changed) (@\d+)/;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PaneWatchers {
  private readonly watches = new Map<string, Watch>();
  /** window id → pane id of the watched panes (one pane per worker window). */
  private readonly windows = new Map<string, string>();
  /** Structural tmux commands vs the control client's connect (structure-gate.ts). */
  readonly gate = new StructureGate();
  private monitor: { client: TmuxControlClient; sessionId: string } | null = null;
  /** When a watched pane exited (pane-exit-watch.ts). */
  private readonly exits: PaneExitWatch;
  /** Commands due in one turn of the event loop, written in one go (command-batcher.ts). */
  private readonly batcher = new CommandBatcher(() => this.client);
  /** `#{pane_dead}` asked because output went quiet; deaths heard from a hook's echo; times a probe timer woke to look at a gap. */
  readonly exitChecks: PaneExitWatch['checks'];
  private connecting: Promise<{ client: TmuxControlClient; sessionId: string }> | null = null;
  private disposed = false;

  constructor(
    private readonly ctx: TmuxContext,
    private readonly bus: PaneEventBus,
    private readonly envBin: string,
    private readonly notice: (message: string, fields: Record<string, unknown>) => void = () => {},
    /** A key per `%output` line, as before issue 46 (the bench's baseline). */
    private readonly keyPerLine = false,
  ) {
    this.exits = new PaneExitWatch({
      ctx,
      bus,
      watched: (paneId) => this.watches.get(paneId),
      paneIds: () => this.watches.keys(),
      disposed: () => this.disposed,
      run: (args) => this.run(args),
      command: (line) => this.batcher.command(line),
      notice: (message, fields) => this.notice(message, fields),
    });
    this.exitChecks = this.exits.checks;
  }

  /** The key of what the pane drew since its burst began (undefined: unknown), and a fresh start. */
  takeBurstKey(paneId: string): number | undefined {
    return this.watches.get(paneId)?.keys.take();
  }

  isWatching(paneId: string): boolean {
    return this.watches.has(paneId);
  }

  /** How many panes are watched. */
  get watchedCount(): number {
    return this.watches.size;
  }

  /** Changes whenever the control client read anything from the server (a new client starts its own count). */
  get activity(): number {
    return this.monitor?.client.received ?? -1;
  }

  /** The live control client, which can run a command about any pane (-t %N); null when none is up. */
  get client(): TmuxControlClient | null {
    return this.monitor?.client.alive ? this.monitor.client : null;
  }

  /**
   * Runs one tmux command over the control client when it is up (no process spawned: restoring
   * 100 workers used to spawn 200 tmux processes), else as its own tmux process. A `%error` reply
   * becomes the same TmuxCommandError a spawned command gives.
   */
  readonly run = async (args: readonly string[]): Promise<string> => {
    const client = this.client;
    if (client) {
      try {
        const lines = await client.command(args.map(quoteControlArg).join(' '));
        return lines.map((line) => `${line}\n`).join('');
      } catch (err) {
        if (err instanceof ControlCommandError) throw new TmuxCommandError(args, err.message, 1);
        if (!(err instanceof ControlClosedError)) throw err;
      }
    }
    return runTmux(this.ctx, args);
  };

  /** Connects the monitor client once (creating the monitor session when missing). */
  ensureMonitor(): Promise<{ client: TmuxControlClient; sessionId: string }> {
    if (this.monitor?.client.alive) return Promise.resolve(this.monitor);
    if (this.disposed) return Promise.reject(new ControlClosedError('the tmux host was disposed'));
    this.connecting ??= this.gate.exclusively(() => this.connect()).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<{ client: TmuxControlClient; sessionId: string }> {
    if (this.monitor?.client.alive) return this.monitor;
    const sessionId = await ensureMonitorSession(this.ctx, this.envBin);
    if (!(await awaitNoControlClients(this.ctx, sessionId))) {
      this.notice('another tmux control client is still attached to the monitor session; connecting anyway', { sessionId });
    }
    // Null until attached: a client that ends before that is reported by open()'s rejection, and
    // its close callback must not read a binding that does not exist yet (a ReferenceError thrown
    // from the child's exit handler is uncaught in the daemon).
    let opened: TmuxControlClient | null = null;
    const client = await TmuxControlClient.open(this.ctx, sessionId, {
      onOutput: (paneId, data, start, end) => {
        const w = this.watches.get(paneId);
        if (!w) return; // the placeholder, or a pane nobody asked about
        if (this.keyPerLine) this.bus.touch(paneId, data ? repaintKey(data, start!, end!) : undefined, data ? end! - start! : undefined);
        else {
          if (data) w.keys.add(data, start!, end!);
          else w.keys.poison();
          this.bus.piece(paneId, data ? end! - start! : undefined);
        }
        this.exits.stirred(paneId);
      },
      onOutputText: (_paneId, text) => this.exits.onEcho(text),
      onOtherNotification: (line) => this.onWindowNotification(line),
      onSubscription: (name, paneId, value) => this.onSubscription(name, paneId, value),
      onClose: (expected, detail) => {
        if (opened === null) return;
        if (this.monitor?.client === opened) this.monitor = null;
        if (!expected && !this.disposed) {
          this.notice('tmux control client ended', { reason: detail, watched: this.watches.size });
          void this.recover();
        }
      },
    });
    opened = client;
    if (this.disposed) {
      await client.close();
      throw new ControlClosedError('the tmux host was disposed');
    }
    // `%*`: every pane of the session, so every linked worker; a subscription naming one pane is
    // reported only once by tmux 3.3a, so a later death would never arrive.
    await client.command(`refresh-client -B 'kh-dead:%*:${DEAD_FORMAT}'`);
    await client.command(`refresh-client -B 'kh-title:%*:#{pane_title}'`);
    this.monitor = { client, sessionId };
    // After a reconnect (the monitor session may have been recreated): link the watched again.
    for (const [paneId, w] of this.watches) {
      w.exit.hooked = false;
      if (w.closing) continue;
      w.windowId = await linkIntoMonitor(this.run, paneId, sessionId).catch(() => w.windowId);
      if (w.windowId) this.windows.set(w.windowId, paneId);
    }
    await this.exits.listen(client, sessionId);
    return this.monitor;
  }

  /** The client went away on its own: reconnect, or report every watched pane gone with its server (control-recovery.ts). */
  private recover(): Promise<void> {
    return recoverControl({
      ctx: this.ctx,
      over: () => this.disposed || this.watches.size === 0,
      connect: () => this.ensureMonitor(),
      sleep,
      notice: this.notice,
      serverGone: () => {
        this.notice('tmux server is gone: every watched worker is reported exited, status unknown', { watched: this.watches.size });
        for (const paneId of this.watches.keys()) if (!this.watches.get(paneId)!.closing) this.bus.exit(paneId, null);
        // Nothing of a dead server carries over: the next server numbers its panes from %0
        // again, and a later worker must not inherit a dead pane's watch or window.
        for (const paneId of [...this.watches.keys()]) this.forget(paneId);
      },
      reconnected: () => {
        this.notice('tmux control client reconnected', { watched: this.watches.size });
        for (const paneId of [...this.watches.keys()]) {
          // Output made while no client was attached was never pushed (a far host's turn that
          // ended during an outage): every watched pane is read once again, as if it had changed.
          if (!this.watches.get(paneId)!.closing) this.bus.touch(paneId);
          void this.exits.confirmGone(paneId);
        }
      },
    });
  }

  /**
   * Starts (once) pushing this pane's events: links its window into the monitor session.
   * `known`: its window and whether it is linked there already, as a listing just said.
   */
  async watch(paneId: string, known?: { windowId: string; inMonitor: boolean }): Promise<void> {
    let w = this.watches.get(paneId);
    if (!w) this.watches.set(paneId, (w = { windowId: null, linking: null, title: null, closing: false, exit: newPaneExit(), keys: new RepaintKeyStream() }));
    w.closing = false;
    const { sessionId } = await this.ensureMonitor();
    if (w.windowId) return;
    const entry = w;
    entry.linking ??= this.gate
      .shared(() => linkIntoMonitor(this.run, paneId, sessionId, known))
      .then((windowId) => {
        entry.windowId = windowId;
        this.windows.set(windowId, paneId);
      })
      .finally(() => {
        entry.linking = null;
      });
    await entry.linking;
    this.exits.hook(paneId);
  }

  private onWindowNotification(line: string): void {
    const match = WINDOW_NOTIFICATION.exec(line);
    const paneId = match ? this.windows.get(match[1]!) : undefined;
    if (!paneId) return;
    if (line.startsWith('%window-close') || line.startsWith('%unlinked-window-close')) void this.exits.confirmGone(paneId);
    else this.exits.stirred(paneId); // the pane's command changed, a layout change: cheap to ask
  }

  private onSubscription(name: string, paneId: string, value: string): void {
    if (name === 'kh-dead') {
      this.exits.onDeadValue(paneId, value);
    } else if (name === 'kh-title') {
      const watch = this.watches.get(paneId);
      if (!watch || watch.title === value) return;
      watch.title = value;
      this.bus.emit(paneId, { type: 'title', title: value });
    }
  }

  /**
   * Drops everything known about a pane id without touching tmux: a pane just created with this
   * id is a new pane (a restarted server reuses ids), not the one we watched before.
   */
  forget(paneId: string): void {
    const w = this.watches.get(paneId);
    if (!w) return;
    w.closing = true;
    stopProbe(w.exit);
    if (w.windowId && this.windows.get(w.windowId) === paneId) this.windows.delete(w.windowId);
    this.watches.delete(paneId);
  }

  /** Stops watching one pane (we are closing it). Its window leaves the monitor when killed. */
  async unwatch(paneId: string): Promise<void> {
    const w = this.watches.get(paneId);
    if (!w) return;
    w.closing = true;
    stopProbe(w.exit);
    await w.linking?.catch(() => {});
    if (w.windowId && this.windows.get(w.windowId) === paneId) this.windows.delete(w.windowId);
    this.watches.delete(paneId);
  }

  /** Stops every watch and detaches the client; the monitor session stays for the next process. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const w of this.watches.values()) {
      w.closing = true;
      stopProbe(w.exit);
    }
    await Promise.all([...this.watches.values()].map((w) => w.linking?.catch(() => {})));
    this.watches.clear();
    this.windows.clear();
    await this.connecting?.catch(() => {});
    await this.monitor?.client.close();
    this.monitor = null;
  }
}
