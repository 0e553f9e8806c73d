/**
 * One tmux control-mode client (`tmux -C attach-session`, over pipes — `-CC` needs a terminal)
 * watching one session. It is our push channel: `%output` says a pane drew something,
 * `%subscription-changed` reports formats we subscribed to (exit status, title).
 *
 * A control client only hears `%output` of windows linked into its own session; the host keeps
 * one, attached to the monitor session (monitor-session.ts). When our process dies the client's
 * stdin closes and it exits; the workers' panes are not affected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseControlLine } from './control-protocol.ts';
import { counts, trace, tracing } from '../trace-timing.ts';
import { tmuxClientEnv, tmuxSpawn, type TmuxContext } from './tmux-command.ts';

export interface ControlHandlers {
  /**
   * A pane drew something: `data[start..end)` is the piece tmux sent (escaped as tmux sends it,
   * valid only during the call; repaint-key.ts hashes it), absent when the line was not read off
   * the bytes.
   */
  onOutput(paneId: string, data?: Uint8Array, start?: number, end?: number): void;
  /** What the `textPane` drew, as tmux escaped it (bytes below 32 and the backslash as octal escapes), instead of `onOutput`. */
  onOutputText?(paneId: string, text: string): void;
  /** Any other notification (%window-renamed, %layout-change, …): a hint that a pane may have changed state. */
  onOtherNotification?(line: string): void;
  onSubscription(name: string, paneId: string, value: string): void;
  /** The client went away; `expected` = we closed it. Otherwise the session or server is gone. */
  onClose(expected: boolean, detail: string): void;
}

/** tmux answered a command with a `%error` block: the command failed (its text is the message). */
export class ControlCommandError extends Error {
  override name = 'ControlCommandError';
}

/** The control client is gone (or going): the command was never answered; another path may work. */
export class ControlClosedError extends Error {
  override name = 'ControlClosedError';
}

interface Pending {
  resolve(lines: string[]): void;
  reject(err: Error): void;
}

const READY_TIMEOUT_MS = 15_000;
/** `%output %<n> …`: recognised on the bytes, so a frame's payload is never decoded (we only need n). */
const OUTPUT_PREFIX = Buffer.from('%output %');
const CLOSE_GRACE_MS = 2_000;

export class TmuxControlClient {
  private readonly child: ChildProcess;
  private readonly pending: Pending[] = [];
  private block: { tag: string; lines: string[] } | null = null;
  private sawFirstBlock = false;
  private closing = false;
  private exited = false;
  private stderr = '';
  /** Reason tmux gave on `%exit` (e.g. "server exited unexpectedly"): goes to stdout, not stderr. */
  private exitReason = '';
  private partial: Buffer = Buffer.alloc(0);
  /**
   * Chunks read from tmux so far: proof the server is alive, counted and never timed (a clock per
   * chunk would cost every streaming worker; server-answers.ts compares the count a few times a bound).
   */
  received = 0;
  /** The one pane whose output is wanted as text (`onOutputText`): the monitor's placeholder, which echoes pane deaths (death-echo.ts). */
  textPane: string | null = null;
  private readonly exitPromise: Promise<void>;
  readonly ready: Promise<void>;

  private constructor(ctx: TmuxContext, target: string, private readonly handlers: ControlHandlers) {
    // Locally tmux itself; on another host ssh carrying the client over the host's one
    // multiplexed connection (a channel, not a handshake), with the same pipes either way.
    const spawned = tmuxSpawn(ctx, ['-C', 'attach-session', '-t', target]);
    this.child = spawn(spawned.file, spawned.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: tmuxClientEnv(),
    });
    let readyResolve!: () => void;
    let readyReject!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    this.ready.catch(() => {}); // observed by open(); avoid an unhandled rejection elsewhere
    this.onFirstBlock = (error, lines) =>
      error ? readyReject(new Error(`tmux could not attach to ${target}: ${lines.join(' ') || 'error'}`)) : readyResolve();
    const timer = setTimeout(() => readyReject(new Error(`tmux control client did not attach to ${target} in time`)), READY_TIMEOUT_MS);
    timer.unref();
    this.child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.child.stdin!.on('error', () => {}); // EPIPE after tmux exited: reported via 'exit'
    this.exitPromise = new Promise<void>((resolve) => {
      const finish = (detail: string) => {
        if (this.exited) return;
        this.exited = true;
        clearTimeout(timer);
        readyReject(new Error(`tmux control client for ${target} ended before attaching: ${detail}`));
        for (const p of this.pending.splice(0)) p.reject(new ControlClosedError(`tmux control client ended: ${detail}`));
        this.handlers.onClose(this.closing, detail);
        resolve();
      };
      this.child.on('error', (err) => finish(err.message));
      this.child.on('exit', (code, signal) => finish(this.exitReason || this.stderr.trim() || `exit ${code ?? signal}`));
    });
  }

  private onFirstBlock: (error: boolean, lines: string[]) => void;

  /** Spawns a client attached to `target` (a session id like "$3") and waits until it is attached. */
  static async open(ctx: TmuxContext, target: string, handlers: ControlHandlers): Promise<TmuxControlClient> {
    const client = new TmuxControlClient(ctx, target, handlers);
    try {
      await client.ready;
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /**
   * Sends ONE control-mode command (no `;` list: tmux answers each command of a list with its
   * own block, and replies are matched to requests strictly in order, one block per line).
   * Resolves with its output lines; rejects with ControlCommandError on %error, with
   * ControlClosedError if the client ends first.
   */
  command(line: string): Promise<string[]> {
    return this.commands([line])[0]!;
  }

  /**
   * Several commands in one write to tmux's stdin (one system call, not one per command: a
   * screen read is two commands, many times a second per streaming worker). Each is answered
   * by its own block, in order.
   */
  commands(lines: readonly string[]): Array<Promise<string[]>> {
    if (this.exited || this.closing) return lines.map(() => Promise.reject(new ControlClosedError('tmux control client is closed')));
    const replies = lines.map(() => new Promise<string[]>((resolve, reject) => this.pending.push({ resolve, reject })));
    this.child.stdin!.write(lines.map((line) => `${line}\n`).join(''));
    return replies;
  }

  /** Detaches (closing stdin makes tmux answer %exit and leave); kills it if it lingers. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.exited) return;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), CLOSE_GRACE_MS);
    timer.unref();
    await this.exitPromise;
    clearTimeout(timer);
  }

  private onData(chunk: Buffer): void {
    this.received++;
    if (tracing) { counts.chunks++; counts.chunkBytes += chunk.length; }
    let data = this.partial.length > 0 ? Buffer.concat([this.partial, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nl = data.indexOf(0x0a, start);
      if (nl < 0) break;
      let end = nl;
      if (end > start && data[end - 1] === 0x0d) end--;
      const from = this.block ? -1 : this.outputPane(data, start, end);
      const paneId = this.outputPaneId;
      if (from >= 0 && paneId === this.textPane && this.handlers.onOutputText) this.handlers.onOutputText(paneId, data.toString('latin1', from, end));
      else if (from >= 0) {
        if (tracing) { counts.outputs++; counts.outputBytes += end - from; }
        if (tracing) trace(paneId, 'output', { bytes: end - from, menu: data.toString('latin1', from, end).includes('Postgres') });
        this.handlers.onOutput(paneId, data, from, end);
      }
      else this.onLine(data.toString('utf8', start, end));
      start = nl + 1;
    }
    this.partial = start < data.length ? Buffer.from(data.subarray(start)) : Buffer.alloc(0);
    data = Buffer.alloc(0);
  }

  /** `%<n>` by n: a pane's id made once, not once per line of its output (tens of thousands a second at load). */
  private readonly paneIds: string[] = [];
  /** The pane of the line outputPane last recognised. */
  private outputPaneId = '';

  /**
   * Where the data of a `%output %<n> <data>` line starts (its pane in outputPaneId), read off
   * the bytes; -1 for any other line.
   */
  private outputPane(data: Buffer, start: number, end: number): number {
    if (end - start <= OUTPUT_BYTES.length) return -1;
    for (let k = 0; k < OUTPUT_BYTES.length; k++) if (data[start + k] !== OUTPUT_BYTES[k]) return -1;
    let i = start + OUTPUT_BYTES.length;
    const digitsFrom = i;
    let n = 0;
    while (i < end && data[i]! >= 0x30 && data[i]! <= 0x39) n = n * 10 + data[i++]! - 0x30;
    if (i === digitsFrom || i - digitsFrom > 9 || (i < end && data[i] !== 0x20)) return -1;
    const canonical = data[digitsFrom] !== 0x30 || i - digitsFrom === 1; // "%07" is not "%7": only canonical numbers are kept
    let paneId = canonical ? this.paneIds[n] : undefined;
    if (paneId === undefined) {
      paneId = `%${data.toString('latin1', digitsFrom, i)}`;
      if (canonical) this.paneIds[n] = paneId;
    }
    this.outputPaneId = paneId;
    return Math.min(i + 1, end);
  }

  private onLine(line: string): void {
    if (this.block) {
      const parsed = line.startsWith('%end ') || line.startsWith('%error ') ? parseControlLine(line) : null;
      if (parsed?.kind === 'end' && parsed.tag === this.block.tag) {
        const { lines } = this.block;
        this.block = null;
        this.finishBlock(lines, parsed.error);
      } else {
        this.block.lines.push(line);
      }
      return;
    }
    const parsed = parseControlLine(line);
    switch (parsed.kind) {
      case 'begin':
        this.block = { tag: parsed.tag, lines: [] };
        break;
      case 'output':
        this.handlers.onOutput(parsed.paneId);
        break;
      case 'subscription':
        this.handlers.onSubscription(parsed.name, parsed.paneId, parsed.value);
        break;
      case 'exit':
        this.exitReason = parsed.reason.trim();
        break;
      case 'other':
        if (line.startsWith('%')) this.handlers.onOtherNotification?.(line);
        break;
      default:
        break; // %exit is followed by the process exit
    }
  }

  private finishBlock(lines: string[], error: boolean): void {
    if (!this.sawFirstBlock) {
      // The first block answers the attach-session itself.
      this.sawFirstBlock = true;
      this.onFirstBlock(error, lines);
      return;
    }
    const p = this.pending.shift();
    if (!p) return;
    if (error) p.reject(new ControlCommandError(lines.join('\n') || 'tmux command failed'));
    else p.resolve(lines);
  }
}

/** The bytes of `%output %`, as a line of output begins. */
const OUTPUT_BYTES = [...OUTPUT_PREFIX];
