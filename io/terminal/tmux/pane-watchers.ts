/**
 * Push events for tmux panes: one control-mode client per worker session, turning `%output`
 * into `changed` and a `pane_dead` subscription into `exited {code}` (xstate-notes §5.3).
 */
import type { PaneEventBus } from '../pane-events.ts';
import { TmuxControlClient } from './control-client.ts';
import { parseDeadValue } from './control-protocol.ts';
import { describePane } from './pane-info.ts';
import { runTmux, type TmuxContext } from './tmux-command.ts';

interface Watch {
  client: TmuxControlClient | null;
  opening: Promise<void> | null;
  title: string | null;
  /** We are closing it: the client's exit is not the worker vanishing. */
  closing: boolean;
}

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

  /** Starts (once) the control client that pushes this pane's events. */
  watch(paneId: string, sessionId: string): Promise<void> {
    let w = this.watches.get(paneId);
    if (!w) this.watches.set(paneId, (w = { client: null, opening: null, title: null, closing: false }));
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
      onOutput: (p) => this.bus.touch(p),
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

  private onSubscription(name: string, paneId: string, value: string): void {
    if (name === 'kh-dead') {
      const dead = parseDeadValue(value);
      if (!dead.dead) return;
      if (dead.code !== null) this.bus.exit(paneId, dead.code);
      else void this.awaitExitStatus(paneId);
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
   * SIGCHLD makes tmux reap every zombie it has. Then ask for the status directly (the
   * subscription repeats only on its one-second tick). No "could not tell" fallback: a process
   * that has not exited has not exited.
   */
  private async awaitExitStatus(paneId: string): Promise<void> {
    for (let i = 0; i < 40 && !this.bus.hasExited(paneId); i++) {
      if (i % 10 === 0) await runTmux(this.ctx, ['run-shell', '-b', 'true']).catch(() => {});
      await sleep(50);
      const pane = await describePane(this.ctx, paneId).catch(() => null);
      if (pane && pane.alive === false && pane.exitCode !== null) this.bus.exit(paneId, pane.exitCode);
    }
  }

  /** Stops watching one pane (we are closing it). */
  async unwatch(paneId: string): Promise<void> {
    const w = this.watches.get(paneId);
    if (!w) return;
    w.closing = true;
    await w.opening?.catch(() => {});
    await w.client?.close();
    this.watches.delete(paneId);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.watches.keys()].map((paneId) => this.unwatch(paneId)));
  }
}
