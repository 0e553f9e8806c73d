/**
 * Push events for tmux panes: one control-mode client per worker session, turning `%output`
 * into `changed`, and `pane_dead` into `exited {code}` (xstate-notes §5.3).
 *
 * Exit is learnt two ways. The `refresh-client -B` subscription is the backstop, but tmux 3.3a
 * reports subscription changes at most once a second, so an exit alone took 0–1000 ms to be
 * seen. The fast path: when a pane's output goes quiet (an agent's last frame before it exits),
 * or tmux sends any other notification about the session, ask `#{pane_dead}` over the control
 * connection — a command, not a process — a few times with backoff.
 */
import type { PaneEventBus } from '../pane-events.ts';
import { ControlClosedError, TmuxControlClient } from './control-client.ts';
import { parseDeadValue, quoteControlArg } from './control-protocol.ts';
import { runTmux, type TmuxContext } from './tmux-command.ts';

interface Watch {
  client: TmuxControlClient | null;
  opening: Promise<void> | null;
  title: string | null;
  /** We are closing it: the client's exit is not the worker vanishing. */
  closing: boolean;
  /** Pending "is it dead?" probe after output went quiet, and how many were made since. */
  probe: ReturnType<typeof setTimeout> | null;
  probes: number;
  /** The exit-status wait (reap workaround) is running. */
  reaping: boolean;
}

/** Quiet gaps after the last output at which `#{pane_dead}` is asked (ms, cumulative backoff). */
const PROBE_DELAYS_MS = [60, 150, 400, 1000];
const DEAD_FORMAT = '#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PaneWatchers {
  private readonly watches = new Map<string, Watch>();
  private disposed = false;

  constructor(
    private readonly ctx: TmuxContext,
    private readonly bus: PaneEventBus,
  ) {}

  isWatching(paneId: string): boolean {
    return this.watches.get(paneId)?.client != null;
  }

  /**
   * A live control client that can run a command about `paneId`: its own watcher's if it has
   * one, else any (every client of the server can address any pane with -t %N). Null when none
   * is up: the caller falls back to spawning tmux.
   */
  clientFor(paneId: string): TmuxControlClient | null {
    const own = this.watches.get(paneId)?.client;
    if (own?.alive) return own;
    for (const w of this.watches.values()) if (w.client?.alive) return w.client;
    return null;
  }

  /** Starts (once) the control client that pushes this pane's events. */
  watch(paneId: string, sessionId: string): Promise<void> {
    let w = this.watches.get(paneId);
    if (!w) this.watches.set(paneId, (w = { client: null, opening: null, title: null, closing: false, probe: null, probes: 0, reaping: false }));
    w.closing = false;
    if (w.client?.alive) return Promise.resolve();
    if (w.opening) return w.opening;
    const entry = w;
    entry.opening = this.open(paneId, sessionId, entry).finally(() => {
      entry.opening = null;
    });
    return entry.opening;
  }

  private async open(paneId: string, sessionId: string, entry: Watch): Promise<void> {
    const client = await TmuxControlClient.open(this.ctx, sessionId, {
      onOutput: (p) => {
        this.bus.touch(p);
        this.armProbe(p, true);
      },
      // A window renamed (the pane's command changed), a layout or mode change: cheap to ask.
      onOtherNotification: () => this.armProbe(paneId, true),
      onSubscription: (name, p, value) => this.onSubscription(name, p, value),
      onClose: (expected) => {
        entry.client = null;
        // The session vanished under us (killed by hand, server gone): the worker is gone and
        // its status cannot be known.
        if (!expected && !entry.closing && !this.disposed) this.bus.exit(paneId, null);
      },
    });
    entry.client = client;
    if (this.disposed) {
      await client.close();
      return;
    }
    // `%*` (every pane of the session — there is one): tmux 3.3a reports a subscription that
    // names one pane only once, so its later death would never arrive.
    await client.command(`refresh-client -B 'kh-dead:%*:#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}'`);
    await client.command(`refresh-client -B 'kh-title:%*:#{pane_title}'`);
  }

  /** (Re)starts the quiet-output probe of one pane; `fresh` = new activity, restart the backoff. */
  private armProbe(paneId: string, fresh: boolean): void {
    const w = this.watches.get(paneId);
    if (!w || w.closing || this.disposed || this.bus.hasExited(paneId)) return;
    if (fresh) w.probes = 0;
    if (w.probe) clearTimeout(w.probe);
    w.probe = null;
    const delay = PROBE_DELAYS_MS[w.probes];
    if (delay === undefined) return; // quiet and alive: the subscription stays the backstop
    w.probe = setTimeout(() => {
      w.probe = null;
      w.probes++;
      void this.probeDead(paneId).then((dead) => {
        if (!dead) this.armProbe(paneId, false);
      });
    }, delay);
    w.probe.unref();
  }

  /** Asks tmux whether the pane is dead, over a control client (else a spawn); true if it is. */
  private async probeDead(paneId: string): Promise<boolean> {
    if (this.bus.hasExited(paneId)) return true;
    const value = await this.query(paneId, DEAD_FORMAT);
    if (value === null) return false;
    this.onDeadValue(paneId, value);
    return parseDeadValue(value).dead;
  }

  /** One `display-message -p` format about a pane; null if it could not be asked. */
  private async query(paneId: string, format: string): Promise<string | null> {
    const client = this.clientFor(paneId);
    if (client) {
      try {
        const lines = await client.command(`display-message -p -t ${paneId} ${quoteControlArg(format)}`);
        return lines.join('\n');
      } catch (err) {
        if (!(err instanceof ControlClosedError)) return null; // %error: no such pane (any more)
      }
    }
    return runTmux(this.ctx, ['display-message', '-p', '-t', paneId, format]).then((out) => out.trimEnd(), () => null);
  }

  private onDeadValue(paneId: string, value: string): void {
    const dead = parseDeadValue(value);
    if (!dead.dead || this.bus.hasExited(paneId)) return;
    if (dead.code !== null) this.bus.exit(paneId, dead.code);
    else void this.awaitExitStatus(paneId);
  }

  private onSubscription(name: string, paneId: string, value: string): void {
    if (name === 'kh-dead') {
      this.onDeadValue(paneId, value);
    } else if (name === 'kh-title') {
      const watch = this.watches.get(paneId);
      if (!watch || watch.title === value) return;
      watch.title = value;
      this.bus.emit(paneId, { type: 'title', title: value });
    }
  }

  /**
   * "Dead, status unknown": tmux saw the pty close but has not reaped the process. Usually that
   * is a moment; but tmux built with libutempter sets SIGCHLD to SIG_DFL while its utmp helper
   * runs — and it runs exactly when a pane's pty closes — so the worker's SIGCHLD can be lost and
   * the zombie stays unreaped until some other child of the server exits (measured here: 1 exit
   * in 4 never got a status). We make one exit: a constant `run-shell -b true` job, whose
   * SIGCHLD makes tmux reap every zombie it has, then ask for the status directly (the
   * subscription repeats only on its one-second tick).
   *
   * This used to give up after 40 tries (~2 s idle, far longer than that under load, since each
   * try spawned tmux); a status that appeared later reached us only if the subscription saw the
   * change — and once that `true` job's own SIGCHLD was lost too, nothing else ever made tmux
   * reap, so the exit was never reported (2 of 6 in one bench run). Now it keeps nudging, once a
   * second after the first half second, for as long as the pane is watched (bounded at 2 min).
   * No "could not tell" fallback: a process that has not exited has not exited.
   */
  private async awaitExitStatus(paneId: string): Promise<void> {
    const w = this.watches.get(paneId);
    if (!w || w.reaping) return;
    w.reaping = true;
    try {
      const started = Date.now();
      for (let i = 0; !this.bus.hasExited(paneId) && !w.closing && !this.disposed && Date.now() - started < 120_000; i++) {
        if (i % (i < 10 ? 10 : 20) === 0) await runTmux(this.ctx, ['run-shell', '-b', 'true']).catch(() => {});
        await sleep(50);
        const value = await this.query(paneId, DEAD_FORMAT);
        if (value === null) continue;
        const dead = parseDeadValue(value);
        if (dead.dead && dead.code !== null) this.bus.exit(paneId, dead.code);
      }
    } finally {
      w.reaping = false;
    }
  }

  /** Stops watching one pane (we are closing it). */
  async unwatch(paneId: string): Promise<void> {
    const w = this.watches.get(paneId);
    if (!w) return;
    w.closing = true;
    if (w.probe) clearTimeout(w.probe);
    await w.opening?.catch(() => {});
    await w.client?.close();
    this.watches.delete(paneId);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.watches.keys()].map((paneId) => this.unwatch(paneId)));
  }
}
