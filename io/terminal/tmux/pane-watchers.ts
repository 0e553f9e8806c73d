/**
 * Push events for tmux panes over ONE control-mode client per host, attached to the monitor
 * session into which every watched worker's window is linked (monitor-session.ts says why not
 * one client per worker). `%output` becomes `changed`, the `pane_dead` subscription `exited
 * {code}`, `%window-close` of a watched window (the pane killed under us) `exited {code: null}`.
 *
 * This file keeps the registry of watched panes and their windows, and says what the client's
 * notifications mean for them; the parts it wires to the registry do the rest. The client itself,
 * and every command sent over it or spawned instead, is monitor-connection.ts's (how a lost one
 * is retried control-recovery.ts's, commands due together written together by
 * command-batcher.ts). When a watched pane exited is pane-exit-watch.ts's (when a quiet pane is
 * asked exit-pacing.ts's, the hook's echo death-echo.ts's, the reap workaround reap-nudge.ts's).
 * Each part reaches the registry through a few callbacks, never its maps.
 */
import type { PaneEventBus } from '../pane-events.ts';
import type { TmuxControlClient } from './control-client.ts';
import { MonitorConnection, type Monitor } from './monitor-connection.ts';
import { linkIntoMonitor } from './monitor-session.ts';
import { newPaneExit, PaneExitWatch, stopProbe, type PaneExit, type WatchedForExit } from './pane-exit-watch.ts';
import type { StructureGate } from './structure-gate.ts';
import type { TmuxContext } from './tmux-command.ts';
import { RepaintKeyStream, repaintKey } from './repaint-key.ts';
import { PourHush } from './pour-hush.ts';

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

/** We are closing it: what it does from now on is not the worker's, and its exit probe stops. */
function closeWatch(w: Watch): void {
  w.closing = true;
  stopProbe(w.exit);
}

const WINDOW_NOTIFICATION = /^%(?:window-close|unlinked-window-close|window-renamed|unlinked-window-renamed|layout-change|window-pane-changed) (@\d+)/;

export class PaneWatchers {
  private readonly watches = new Map<string, Watch>();
  /** window id → pane id of the watched panes (one pane per worker window). */
  private readonly windows = new Map<string, string>();
  /** The control client and the commands over it (monitor-connection.ts). */
  private readonly connection: MonitorConnection;
  /** When a watched pane exited (pane-exit-watch.ts). */
  private readonly exits: PaneExitWatch;
  /** Structural tmux commands vs the control client's connect (structure-gate.ts). */
  readonly gate: StructureGate;
  /** Runs one tmux command over the control client when it is up, else as its own process (monitor-connection.ts). */
  readonly run: (args: readonly string[]) => Promise<string>;
  /** `#{pane_dead}` asked because output went quiet; deaths heard from a hook's echo; times a probe timer woke to look at a gap. */
  readonly exitChecks: PaneExitWatch['checks'];
  private disposed = false;

  constructor(
    ctx: TmuxContext,
    private readonly bus: PaneEventBus,
    envBin: string,
    private readonly notice: (message: string, fields: Record<string, unknown>) => void = () => {},
    /** A key per `%output` line, as before issue 46 (the bench's baseline). */
    private readonly keyPerLine = false,
  ) {
    const connection = new MonitorConnection({
      ctx,
      envBin,
      notice,
      disposed: () => this.disposed,
      watched: () => this.watches.size,
      events: {
        onOutput: (paneId, data, start, end) => this.onOutput(paneId, data, start, end),
        onOutputText: (_paneId, text) => this.exits.onEcho(text),
        onOtherNotification: (line) => this.onWindowNotification(line),
        onSubscription: (name, paneId, value) => this.onSubscription(name, paneId, value),
      },
      connected: (client, sessionId) => this.relink(client, sessionId),
      serverGone: () => this.serverGone(),
      reconnected: () => this.reconnected(),
    });
    this.connection = connection;
    this.gate = connection.gate;
    this.run = connection.run;
    this.exits = new PaneExitWatch({
      ctx,
      bus,
      watched: (paneId) => this.watches.get(paneId),
      paneIds: () => this.watches.keys(),
      disposed: () => this.disposed,
      run: (args) => this.run(args),
      command: (line) => connection.command(line),
      notice: (message, fields) => this.notice(message, fields),
    });
    this.exitChecks = this.exits.checks;
    this.hush = new PourHush({
      command: (line) => connection.command(line),
      hushed: (paneId) => this.exits.hushed(paneId),
      unseenOutput: (paneId) => {
        const w = this.watches.get(paneId);
        if (!w) return;
        w.keys.skipped();
        this.bus.unseen(paneId);
        this.exits.stirred(paneId);
      },
      watching: (paneId) => this.watches.get(paneId)?.closing === false,
      shownLive: (paneId) => this.bus.shownLive(paneId),
      notice: (message, fields) => this.notice(message, fields ?? {}),
    });
  }

  /** Pouring panes hushed between their reads (pour-hush.ts). */
  readonly hush: PourHush;

  /** The bus announced a pane (`poured`: it kept drawing since its last announcement): a pane that pours is hushed until its next read. */
  announced(paneId: string, poured: boolean): void {
    if (!this.keyPerLine) this.hush.announced(paneId, poured);
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
    return this.connection.activity;
  }

  /** The live control client, which can run a command about any pane (-t %N); null when none is up. */
  get client(): TmuxControlClient | null {
    return this.connection.client;
  }

  /** Connects the monitor client once (creating the monitor session when missing). */
  ensureMonitor(): Promise<Monitor> {
    return this.connection.ensureMonitor();
  }

  /** A pane drew: the piece goes into its burst's key (or a key per line), its bus is told, and its exit probe moves on. */
  private onOutput(paneId: string, data?: Uint8Array, start?: number, end?: number): void {
    const w = this.watches.get(paneId);
    if (!w) return; // the placeholder, or a pane nobody asked about
    if (this.hush.drew(paneId)) return; // a hushed pane's: its next read covers it
    if (this.keyPerLine) this.bus.touch(paneId, data ? repaintKey(data, start!, end!) : undefined, data ? end! - start! : undefined);
    else {
      if (data) w.keys.add(data, start!, end!);
      else w.keys.poison();
      this.bus.piece(paneId, data ? end! - start! : undefined);
    }
    this.exits.stirred(paneId);
  }

  /** A new client: the monitor session may have been recreated, so every watched window is linked again. */
  private async relink(client: TmuxControlClient, sessionId: string): Promise<void> {
    this.hush.reset(); // the new client sends every pane's output
    for (const [paneId, w] of this.watches) {
      w.exit.hooked = false; // its hook echoes into the old placeholder, if any
      if (w.closing) continue;
      w.windowId = await linkIntoMonitor(this.run, paneId, sessionId).catch(() => w.windowId);
      if (w.windowId) this.windows.set(w.windowId, paneId);
    }
    await this.exits.listen(client, sessionId);
  }

  private serverGone(): void {
    this.notice('tmux server is gone: every watched worker is reported exited, status unknown', { watched: this.watches.size });
    for (const paneId of this.watches.keys()) if (!this.watches.get(paneId)!.closing) this.bus.exit(paneId, null);
    // Nothing of a dead server carries over: the next server numbers its panes from %0
    // again, and a later worker must not inherit a dead pane's watch or window.
    for (const paneId of [...this.watches.keys()]) this.forget(paneId);
  }

  private reconnected(): void {
    this.notice('tmux control client reconnected', { watched: this.watches.size });
    for (const paneId of [...this.watches.keys()]) {
      // Output made while no client was attached was never pushed (a far host's turn that
      // ended during an outage): every watched pane is read once again, as if it had changed.
      if (!this.watches.get(paneId)!.closing) this.bus.touch(paneId);
      void this.exits.confirmGone(paneId);
    }
  }

  /**
   * Starts (once) pushing this pane's events: links its window into the monitor session.
   * `known`: its window and whether it is linked there already, as a listing just said.
   */
  async watch(paneId: string, known?: { windowId: string; inMonitor: boolean }): Promise<void> {
    let w = this.watches.get(paneId);
    if (!w) this.watches.set(paneId, (w = { windowId: null, linking: null, title: null, closing: false, exit: newPaneExit(), keys: new RepaintKeyStream() }));
    w.closing = false;
    const { sessionId } = await this.connection.ensureMonitor();
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
    closeWatch(w);
    this.drop(paneId, w);
  }

  /** Stops watching one pane (we are closing it). Its window leaves the monitor when killed. */
  async unwatch(paneId: string): Promise<void> {
    const w = this.watches.get(paneId);
    if (!w) return;
    closeWatch(w);
    await w.linking?.catch(() => {});
    this.drop(paneId, w);
  }

  /** The pane and its window leave the registry. */
  private drop(paneId: string, w: Watch): void {
    this.hush.drop(paneId);
    if (w.windowId && this.windows.get(w.windowId) === paneId) this.windows.delete(w.windowId);
    this.watches.delete(paneId);
  }

  /** Stops every watch and detaches the client; the monitor session stays for the next process. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.hush.reset();
    for (const w of this.watches.values()) closeWatch(w);
    await Promise.all([...this.watches.values()].map((w) => w.linking?.catch(() => {})));
    this.watches.clear();
    this.windows.clear();
    await this.connection.close();
  }
}
