/**
 * Watches one herdr pane and turns what herdr pushes into our pane events.
 *
 * - `changed`: herdr's socket API has no output-change event (`pane.output_changed` cannot be
 *   subscribed), so screen changes come from `terminal session observe`, herdr's read-only stream
 *   of terminal frames: every frame is a change. `pane.agent_status_changed` counts too.
 *   Only if the observer cannot run (a herdr without it) does a bounded poll of the pane's content
 *   revision stand in, every `pollMs`, for as long as the watch lives.
 * - `exited` / `title`: a pane probe (`pane.get`) reads the terminal title, where our launch line
 *   leaves the exit status (launch-line.ts). Probes run on herdr's pane events
 *   (updated / exited / closed / agent detected / status changed) and, throttled, on frames.
 *   A pane herdr no longer knows, or a server that is gone, is an exit with unknown status.
 */
import { createInterface } from 'node:readline';
import { spawnObserver, type HerdrContext } from './herdr-cli.ts';
import { herdrRequests, paneNotFound, socketRequest, subscribe, type HerdrEvent, type Subscription } from './herdr-socket.ts';
import { exitCodeFromTitle } from './launch-line.ts';

export interface PaneWatchHooks {
  changed(): void;
  title(title: string): void;
  exited(code: number | null): void;
}

export interface PaneWatchOptions {
  cols: number;
  rows: number;
  /** Started through `agent start`: no exit trailer, so the agent leaving the pane is the exit. */
  agentLaunched: boolean;
  /** Minimum spacing of frame-triggered probes; default 250 ms. */
  probeMs?: number;
  /** Revision poll interval when no observer can run; default 250 ms. */
  pollMs?: number;
}

interface HerdrPane {
  terminal_title?: string;
  agent?: string;
}

export class PaneWatch {
  private observer: ReturnType<typeof spawnObserver> | null = null;
  private subscription: Subscription | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;
  private done = false;
  private lastTitle: string | undefined;
  private sawAgent = false;
  private probing = false;
  private probeAgain = false;
  private probeTimer: NodeJS.Timeout | null = null;
  private lastRevision: unknown;

  constructor(
    private readonly ctx: HerdrContext,
    private readonly socketPath: string,
    private readonly paneId: string,
    private readonly hooks: PaneWatchHooks,
    private readonly options: PaneWatchOptions,
  ) {}

  async start(): Promise<void> {
    this.subscription = await subscribe(
      this.socketPath,
      herdrRequests.paneEvents(this.paneId),
      (e) => this.onEvent(e),
      () => this.probe(0),
    );
    if (this.stopped) this.subscription.close();
    else this.startObserver();
    this.probe(0);
  }

  private startObserver(): void {
    const child = spawnObserver(this.ctx, this.paneId, this.options.cols, this.options.rows);
    this.observer = child;
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.includes('"terminal.frame"')) return;
      this.hooks.changed();
      this.probe(this.options.probeMs ?? 250);
    });
    void child.then((result) => {
      lines.close();
      if (this.stopped || this.done) return;
      this.observer = null;
      // The stream ended while we still watch: the pane or the server may be gone. If the pane
      // is still there, this herdr cannot observe: fall back to the bounded revision poll.
      this.probe(0);
      if (result.exitCode !== 0) this.startPoll();
    });
  }

  private startPoll(): void {
    if (this.poll || this.stopped) return;
    this.poll = setInterval(() => {
      void socketRequest<{ read?: { revision?: unknown } }>(this.socketPath, ...herdrRequests.paneRevision(this.paneId)).then((r) => {
        if (this.stopped || !r.ok) return;
        const revision = r.result.read?.revision;
        if (revision !== this.lastRevision) {
          this.lastRevision = revision;
          this.hooks.changed();
          this.probe(0);
        }
      });
    }, this.options.pollMs ?? 250);
    this.poll.unref?.();
  }

  private onEvent({ event, data }: HerdrEvent): void {
    const pane = data.pane as { pane_id?: unknown } | undefined;
    const paneId = data.pane_id ?? pane?.pane_id;
    if (paneId !== this.paneId) return;
    if (event === 'pane.agent_status_changed') this.hooks.changed();
    this.probe(0);
  }

  /** Schedules a pane probe; one at a time, and a request during one runs once after it. */
  probe(delayMs: number): void {
    if (this.stopped || this.done) return;
    if (this.probing || this.probeTimer) {
      this.probeAgain = true;
      if (delayMs === 0 && this.probeTimer && !this.probing) {
        clearTimeout(this.probeTimer);
        this.probeTimer = null;
        void this.runProbe();
      }
      return;
    }
    if (delayMs === 0) void this.runProbe();
    else this.probeTimer = setTimeout(() => void this.runProbe(), delayMs);
  }

  private async runProbe(): Promise<void> {
    this.probeTimer = null;
    this.probing = true;
    this.probeAgain = false;
    try {
      const reply = await socketRequest<{ pane?: HerdrPane }>(this.socketPath, ...herdrRequests.paneGet(this.paneId));
      if (this.stopped) return;
      if (!reply.ok) {
        if (reply.unreachable || paneNotFound(reply.error)) this.finish(null);
        return;
      }
      const pane = reply.result.pane ?? {};
      const code = exitCodeFromTitle(pane.terminal_title);
      if (code !== null) return this.finish(code);
      if (pane.terminal_title !== undefined && pane.terminal_title !== this.lastTitle) {
        this.lastTitle = pane.terminal_title;
        this.hooks.title(pane.terminal_title);
      }
      if (pane.agent) this.sawAgent = true;
      else if (this.sawAgent && this.options.agentLaunched) this.finish(null);
    } finally {
      this.probing = false;
      if (this.probeAgain && !this.stopped && !this.done) {
        this.probeAgain = false;
        this.probe(this.options.probeMs ?? 250);
      }
    }
  }

  private finish(code: number | null): void {
    if (this.done) return;
    this.done = true;
    this.hooks.exited(code);
    void this.release();
  }

  private async release(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
    this.subscription?.close();
    this.subscription = null;
    const observer = this.observer;
    this.observer = null;
    if (observer) {
      observer.kill();
      await observer.catch(() => {});
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.release();
  }
}
