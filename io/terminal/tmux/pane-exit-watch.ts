/**
 * When a watched pane's agent exited, and with what status: `exited {code}` on the pane's bus.
 *
 * Exit is learnt three ways. The `refresh-client -B` subscription (`kh-dead`) is the backstop, but
 * tmux 3.3a reports subscription changes at most once a second, so an exit alone took 0–1000 ms to
 * be seen. The fast paths: when a pane's output goes quiet (an agent's last frame before it
 * exits), ask `#{pane_dead}` over the control connection — a command, not a process — a few times
 * with backoff, as does any other tmux notification about its window; and each pane's
 * `pane-died` hook types its id into the monitor's placeholder, whose echo we hear at once
 * (death-echo.ts). That hook runs only once tmux has reaped the agent, which the tmux 3.3a
 * packaged here often does late (the reap workaround, reap-nudge.ts), so the quiet-output ask
 * stays. A watched window that closes, or every pane after a reconnect, is asked whether it still
 * exists: gone is `exited {code: null}`.
 *
 * Apart from the registry of watched panes (pane-watchers.ts) because this is timers and asks,
 * each about one pane: it reads a pane's watch through `watched` and keeps its own state on it
 * (`PaneExit`); a timer or a nudge holds the watch it started with, so a pane forgotten and
 * watched again under the same id never inherits them. When a quiet pane is asked is
 * exit-pacing.ts's.
 */
import type { PaneEventBus } from '../pane-events.ts';
import { ControlClosedError, type TmuxControlClient } from './control-client.ts';
import { parseDeadValue, quoteControlArg } from './control-protocol.ts';
import { EchoedDeaths } from './death-echo.ts';
import { newExitPace, noteActivity, onProbeTimer, probeDelay, type ExitPace } from './exit-pacing.ts';
import { nudgeUntilReaped } from './reap-nudge.ts';
import { runTmux, TmuxCommandError, type TmuxContext } from './tmux-command.ts';
import { counts } from '../trace-timing.ts';

/** What the `kh-dead` subscription reports and a probe asks. */
export const DEAD_FORMAT = '#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One watched pane's exit state, kept on its watch. */
export interface PaneExit {
  /** Pending "is it dead?" probe after output went quiet, and the output rhythm that times it (exit-pacing.ts). */
  probe: ReturnType<typeof setTimeout> | null;
  pace: ExitPace;
  /** The exit-status wait (reap workaround) is running. */
  reaping: boolean;
  /** Its `pane-died` hook echoes into the current placeholder, which was heard echoing. */
  hooked: boolean;
}

export const newPaneExit = (): PaneExit => ({ probe: null, pace: newExitPace(), reaping: false, hooked: false });

/** The pane leaves the watch: its pending probe with it. */
export function stopProbe(exit: PaneExit): void {
  if (exit.probe) clearTimeout(exit.probe);
}

/** A pane's watch, as far as its exit is concerned. */
export interface WatchedForExit {
  /** We are closing it: its death, or its window closing, is not the worker vanishing. */
  readonly closing: boolean;
  readonly exit: PaneExit;
}

export interface PaneExitPort {
  ctx: TmuxContext;
  bus: Pick<PaneEventBus, 'exit' | 'hasExited'>;
  /** The pane's watch; undefined when it is not watched. */
  watched(paneId: string): WatchedForExit | undefined;
  /** Every watched pane. */
  paneIds(): Iterable<string>;
  /** The host is being disposed. */
  disposed(): boolean;
  /** One tmux command, over the control client when it is up, else spawned. */
  run(args: readonly string[]): Promise<string>;
  /** One control command, written with the others due in this turn (command-batcher.ts); rejects with ControlClosedError when no client is up. */
  command(line: string): Promise<string[]>;
  notice(message: string, fields: Record<string, unknown>): void;
}

export class PaneExitWatch {
  /** `#{pane_dead}` asked because output went quiet; deaths heard from a hook's echo; times a probe timer woke to look at a gap. */
  readonly checks = { asked: 0, echoed: 0, looked: 0 };
  /** Deaths pushed by each pane's hook through the monitor's placeholder (death-echo.ts). */
  private readonly deaths: EchoedDeaths;

  constructor(private readonly port: PaneExitPort) {
    const { bus } = port;
    this.deaths = new EchoedDeaths({
      run: (args) => port.run(args),
      command: (line) => port.command(line),
      wantsHook: (paneId) => {
        const w = port.watched(paneId);
        return w !== undefined && !w.closing && !w.exit.hooked;
      },
      hooked: (paneId) => {
        port.watched(paneId)!.exit.hooked = true;
        void this.probeDead(paneId); // a death before the hook was set would never echo
      },
      died: (paneId) => {
        const w = port.watched(paneId);
        if (!w || w.closing || bus.hasExited(paneId)) return;
        this.checks.echoed++;
        void this.probeDead(paneId).then((dead) => {
          if (!dead) this.armProbe(paneId, false); // echoed, yet not dead to tmux: keep asking as after quiet output
        });
      },
      echoing: () => {
        for (const paneId of port.paneIds()) this.deaths.hook(paneId);
      },
      notice: (message, fields) => port.notice(message, fields),
    });
  }

  /** A new control client: its placeholder is asked to echo, which turns the hooks on (death-echo.ts). */
  listen(client: TmuxControlClient, sessionId: string): Promise<void> {
    return this.deaths.listen(client, sessionId);
  }

  /** The placeholder drew: its echo, or the ids of panes that died. */
  onEcho(text: string): void {
    this.deaths.onEcho(text);
  }

  /** Sets the pane's death hook, once the placeholder echoes. */
  hook(paneId: string): void {
    this.deaths.hook(paneId);
  }

  /**
   * The pane's output is paused for our client (pour-hush.ts): its silence says nothing, so no
   * probe asks about it until it draws again. Its death still comes by the subscription and the
   * hook, as for any pane.
   */
  hushed(paneId: string): void {
    const w = this.port.watched(paneId);
    if (!w?.exit.probe) return;
    clearTimeout(w.exit.probe);
    w.exit.probe = null;
  }

  /** The pane drew, or a notification named its window: it may be about to exit, so ask once it is quiet. */
  stirred(paneId: string): void {
    this.armProbe(paneId, true);
  }

  /**
   * (Re)starts the quiet-output probe of one pane; `fresh` = new activity, restart the backoff.
   * Output arrives many times a second while a worker streams, so this only moves the start of
   * the quiet gap; the one pending timer looks at the gap when it fires and waits out the rest
   * (clearing and setting a timer per `%output` was a visible share of the daemon's CPU). When it
   * asks is exit-pacing.ts's.
   */
  private armProbe(paneId: string, fresh: boolean): void {
    const w = this.port.watched(paneId);
    if (!w || w.closing || this.port.disposed() || this.port.bus.hasExited(paneId)) return;
    noteActivity(w.exit.pace, performance.now(), fresh);
    const delay = probeDelay(w.exit.pace);
    if (delay === undefined) return; // quiet and alive: the subscription stays the backstop
    if (!w.exit.probe) this.scheduleProbe(paneId, w, delay);
  }

  private scheduleProbe(paneId: string, w: WatchedForExit, ms: number): void {
    w.exit.probe = setTimeout(() => {
      w.exit.probe = null;
      if (w.closing || this.port.disposed() || this.port.bus.hasExited(paneId)) return;
      this.checks.looked++;
      const next = onProbeTimer(w.exit.pace, performance.now());
      if ('stop' in next) return;
      if ('waitMs' in next) return this.scheduleProbe(paneId, w, next.waitMs);
      this.checks.asked++;
      void this.probeDead(paneId).then((dead) => {
        if (!dead) this.armProbe(paneId, false);
      });
    }, ms);
    w.exit.probe.unref();
  }

  /** Asks tmux whether the pane is dead, over the control client (else a spawn); true if it is. */
  private async probeDead(paneId: string): Promise<boolean> {
    if (this.port.bus.hasExited(paneId)) return true;
    const value = await this.queryBatched(paneId, DEAD_FORMAT);
    if (value === null) return false;
    this.onDeadValue(paneId, value);
    return parseDeadValue(value).dead;
  }

  /** The same question as `query`, batched (command-batcher.ts): no later than `query` would. */
  private queryBatched(paneId: string, format: string): Promise<string | null> {
    counts.probes++;
    return this.port.command(`display-message -p -t ${paneId} ${quoteControlArg(format)}`).then(
      (lines) => lines.join('\n').trimEnd(),
      // A failure (%error: no such pane any more) is null, never text; a closed client asks again by a spawn.
      (err) => (err instanceof ControlClosedError ? this.query(paneId, format) : null),
    );
  }

  /** One `display-message -p` format about a pane; null if it could not be asked. */
  private query(paneId: string, format: string): Promise<string | null> {
    // A failure (%error: no such pane any more) is null, never text.
    return this.port.run(['display-message', '-p', '-t', paneId, format]).then((out) => out.trimEnd(), () => null);
  }

  /** A `DEAD_FORMAT` value for the pane, asked or from the subscription: dead with a status is its exit. */
  onDeadValue(paneId: string, value: string): void {
    const dead = parseDeadValue(value);
    if (!dead.dead || this.port.bus.hasExited(paneId) || !this.port.watched(paneId)) return;
    if (dead.code !== null) this.port.bus.exit(paneId, dead.code);
    else void this.awaitExitStatus(paneId);
  }

  /** Dead without a status: tmux may have lost the agent's SIGCHLD; nudged until it reaps (reap-nudge.ts). */
  private async awaitExitStatus(paneId: string): Promise<void> {
    const w = this.port.watched(paneId);
    if (!w || w.exit.reaping) return;
    w.exit.reaping = true;
    try {
      await nudgeUntilReaped({
        ctx: this.port.ctx,
        askDead: () => this.query(paneId, DEAD_FORMAT),
        over: () => this.port.bus.hasExited(paneId) || w.closing || this.port.disposed(),
        exited: (code) => this.port.bus.exit(paneId, code),
        sleep,
      });
    } finally {
      w.exit.reaping = false;
    }
  }

  /** The pane's window closed, or we reconnected: if the pane no longer exists, it is gone. */
  async confirmGone(paneId: string): Promise<void> {
    const w = this.port.watched(paneId);
    if (!w || w.closing || this.port.bus.hasExited(paneId)) return;
    // Over the control client, a pane being destroyed can still be addressed and answer empty
    // formats; only tmux's own "can't find pane" from a fresh command is proof it is gone.
    if ((await this.query(paneId, '#{pane_id}')) === paneId) return;
    const gone = await runTmux(this.port.ctx, ['display-message', '-p', '-t', paneId, '#{pane_id}']).then(
      (out) => out.trim() === '',
      (err) => err instanceof TmuxCommandError && (err.noTarget || err.noServer),
    );
    if (gone && !w.closing) this.port.bus.exit(paneId, null);
  }
}
