/**
 * The host's one control-mode client, attached to the monitor session (monitor-session.ts), and
 * the commands that go over it. It is connected when first needed, under the structure gate so no
 * structural command races the attach; subscribed to every pane's death and title; recovered
 * when it goes away on its own (control-recovery.ts says when and how often). `run` goes over it
 * while it is up and spawns tmux otherwise; `command` writes with every other command due in the
 * same turn (command-batcher.ts).
 *
 * Apart from the registry of watched panes (pane-watchers.ts), which says what the client's
 * notifications mean, what a new client must be given (the watched windows linked into its
 * session again, the death echo listened for), and what a lost server means for the watched.
 */
import { ControlClosedError, ControlCommandError, TmuxControlClient, type ControlHandlers } from './control-client.ts';
import { quoteControlArg } from './control-protocol.ts';
import { CommandBatcher } from './command-batcher.ts';
import { recoverControl } from './control-recovery.ts';
import { awaitNoControlClients, ensureMonitorSession } from './monitor-session.ts';
import { DEAD_FORMAT } from './pane-exit-watch.ts';
import { StructureGate } from './structure-gate.ts';
import { runTmux, TMUX_COMMAND_BOUND_MS, TmuxCommandError, tmuxLiteral, type TmuxContext } from './tmux-command.ts';

export interface Monitor {
  client: TmuxControlClient;
  sessionId: string;
}

export interface MonitorConnectionPort {
  ctx: TmuxContext;
  envBin: string;
  notice(message: string, fields: Record<string, unknown>): void;
  /** The host is being disposed: no new client, no recovery. */
  disposed(): boolean;
  /** How many panes are watched: a lost client is recovered only while any is. */
  watched(): number;
  /** What the client's notifications mean; its close is the connection's own. */
  events: Omit<ControlHandlers, 'onClose'>;
  /** A new client is up and subscribed: give it the watched panes. */
  connected(client: TmuxControlClient, sessionId: string): Promise<void>;
  /** The client was lost with its server. */
  serverGone(): void;
  /** The client was lost and is back. */
  reconnected(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class MonitorConnection {
  /** Structural tmux commands vs the control client's connect (structure-gate.ts). */
  readonly gate = new StructureGate();
  private monitor: Monitor | null = null;
  private connecting: Promise<Monitor> | null = null;
  /** Commands due in one turn of the event loop, written in one go (command-batcher.ts). */
  private readonly batcher = new CommandBatcher(() => this.client);

  constructor(private readonly port: MonitorConnectionPort) {}

  /** Changes whenever the control client read anything from the server (a new client starts its own count). */
  get activity(): number {
    return this.monitor?.client.received ?? -1;
  }

  /** The live control client, which can run a command about any pane (-t %N); null when none is up. */
  get client(): TmuxControlClient | null {
    return this.monitor?.client.alive ? this.monitor.client : null;
  }

  /**
   * Runs ONE tmux command (never a `;` list), its arguments as meant, over the control client
   * when it is up (no process spawned: restoring 100 workers used to spawn 200 tmux processes;
   * keys and listings spawned one each), else as its own tmux process, where an argument that
   * ends in `;` is escaped (tmuxLiteral). A `%error` reply becomes the same TmuxCommandError a
   * spawned command gives; an answer that does not come within `timeoutMs` is one too, as a
   * spawned command killed at its bound (the command may still have run).
   */
  readonly run = async (args: readonly string[], timeoutMs = TMUX_COMMAND_BOUND_MS): Promise<string> => {
    const client = this.client;
    // A line break cannot travel in a control-mode line: such a command is spawned.
    if (client && !args.some((a) => /[\n\r]/.test(a))) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const lines = await Promise.race([
          client.command(args.map(quoteControlArg).join(' ')),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new TmuxCommandError(args, `killed (timeout) after ${timeoutMs} ms: no answer over the control client`, undefined)), timeoutMs);
          }),
        ]);
        return lines.map((line) => `${line}\n`).join('');
      } catch (err) {
        if (err instanceof ControlCommandError) throw new TmuxCommandError(args, err.message, 1);
        if (!(err instanceof ControlClosedError)) throw err;
      } finally {
        clearTimeout(timer);
      }
    }
    return runTmux(this.port.ctx, args.map(tmuxLiteral), undefined, timeoutMs);
  };

  /** One control command, written with the others due in this turn; rejects with ControlClosedError when no client is up. */
  command(line: string): Promise<string[]> {
    return this.batcher.command(line);
  }

  /** Connects the monitor client once (creating the monitor session when missing). */
  ensureMonitor(): Promise<Monitor> {
    if (this.monitor?.client.alive) return Promise.resolve(this.monitor);
    if (this.port.disposed()) return Promise.reject(new ControlClosedError('the tmux host was disposed'));
    this.connecting ??= this.gate.exclusively(() => this.connect()).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<Monitor> {
    if (this.monitor?.client.alive) return this.monitor;
    const { ctx, notice } = this.port;
    const sessionId = await ensureMonitorSession(ctx, this.port.envBin);
    if (!(await awaitNoControlClients(ctx, sessionId))) {
      notice('another tmux control client is still attached to the monitor session; connecting anyway', { sessionId });
    }
    // Null until attached: a client that ends before that is reported by open()'s rejection, and
    // its close callback must not read a binding that does not exist yet (a ReferenceError thrown
    // from the child's exit handler is uncaught in the daemon).
    let opened: TmuxControlClient | null = null;
    const client = await TmuxControlClient.open(ctx, sessionId, {
      ...this.port.events,
      onClose: (expected, detail) => {
        if (opened === null) return;
        if (this.monitor?.client === opened) this.monitor = null;
        if (!expected && !this.port.disposed()) {
          notice('tmux control client ended', { reason: detail, watched: this.port.watched() });
          void this.recover();
        }
      },
    });
    opened = client;
    if (this.port.disposed()) {
      await client.close();
      throw new ControlClosedError('the tmux host was disposed');
    }
    // `%*`: every pane of the session, so every linked worker; a subscription naming one pane is
    // reported only once by tmux 3.3a, so a later death would never arrive.
    await client.command(`refresh-client -B 'kh-dead:%*:${DEAD_FORMAT}'`);
    await client.command(`refresh-client -B 'kh-title:%*:#{pane_title}'`);
    this.monitor = { client, sessionId };
    await this.port.connected(client, sessionId);
    return this.monitor;
  }

  /** The client went away on its own: reconnect, or report every watched pane gone with its server (control-recovery.ts). */
  private recover(): Promise<void> {
    return recoverControl({
      ctx: this.port.ctx,
      over: () => this.port.disposed() || this.port.watched() === 0,
      connect: () => this.ensureMonitor(),
      sleep,
      notice: this.port.notice,
      serverGone: () => this.port.serverGone(),
      reconnected: () => this.port.reconnected(),
    });
  }

  /** Detaches the client, once a connect under way has settled; the monitor session stays for the next process. */
  async close(): Promise<void> {
    await this.connecting?.catch(() => {});
    await this.monitor?.client.close();
    this.monitor = null;
  }
}
