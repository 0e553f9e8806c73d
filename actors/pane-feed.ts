/**
 * Feeds one pane into one worker: a `changed` event (or a request) becomes ONE viewport read,
 * analysed into a ScreenReading; `exited` becomes the exit. Reads are coalesced — a burst of
 * changes while a read is in flight costs one more read, not one per change — and the last
 * read always follows the last change, so the machine never rests on a stale screen.
 *
 * A failed read is "could not tell" (an unreadable reading), and on a host whose panes outlive
 * us (tmux, herdr) it is confirmed (reference §3.7: gone only after a confirmed second read with
 * the server up): after RECHECK_MS the pane is read again; if that fails too, the host's pane
 * list and server state decide — listed and exited → exit; absent from a good list with the
 * server up → missing (gone); anything else (server down, no answer) → missing with the server
 * not up, which the machine reports as wait-failed. While it cannot tell, it looks again every
 * RETRY_MS: the only polling here, and only for as long as the pane cannot be seen.
 *
 * A change the pane pushed that reads exactly as the last reading delivered (a spinner frame, a
 * timer tick: the fingerprint and the last lines are normalised, so they read the same) is not
 * delivered again (issue 26): the machine, the view, the journal and every listener did that
 * work ten times a second per working agent for nothing. A machine never waits for a repeat (a
 * still screen sends none), and a read asked for (`requestRead`) is always delivered.
 */
import type { ScreenReading } from '../io/screen/types.ts';
import type { Screen } from '../io/screen/types.ts';
import type { TerminalHost } from '../io/terminal/types.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';
import type { Clock } from './ports.ts';

/** Pause before the confirming second read of a pane whose read failed. */
export const RECHECK_MS = 1_500;
/** While a pane cannot be told apart from a missing one, how often it is looked for again. */
export const RETRY_MS = 15_000;

export interface PaneFeedOptions {
  host: TerminalHost;
  paneId: string;
  agent: string;
  analyse(screen: Screen, agent: string): ScreenReading;
  onReading(reading: ScreenReading): void;
  onExit(code: number | null): void;
  /** A failed read was confirmed: the pane is not listed. serverUp says whether that proves anything. */
  onMissing?(serverUp: boolean): void;
  clock?: Clock;
  log?: (obj: Record<string, unknown>) => void;
}

export class PaneFeed {
  private unsubscribe: (() => void) | null = null;
  private reading = false;
  private dirty = false;
  private closed = false;
  private timer: unknown = null;
  /** The last reading handed to the worker, and whether the next must be handed over whatever it says. */
  private delivered: ScreenReading | null = null;
  private mustDeliver = true;
  /** Settles when no read is in flight (tests and shutdown wait on it). */
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly o: PaneFeedOptions) {}

  start(): void {
    this.unsubscribe = this.o.host.subscribe(this.o.paneId, (ev) => {
      if (this.closed) return;
      if (ev.type === 'changed') this.schedule();
      else if (ev.type === 'exited') this.o.onExit(ev.code);
    });
    this.requestRead();
  }

  /** A read whose reading is delivered even when it reads as the last one did. */
  requestRead(): void {
    this.mustDeliver = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.reading) {
      this.dirty = true;
      return;
    }
    this.reading = true;
    this.idle = this.loop();
  }

  get busy(): boolean {
    return this.reading;
  }

  /** Resolves once every requested read has been delivered. */
  settled(): Promise<void> {
    return this.idle;
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.dirty = false;
        const res = await this.o.host.readVisible(this.o.paneId);
        if (this.closed) return;
        let reading: ScreenReading;
        if (res.ok) {
          try {
            reading = this.o.analyse(res.screen, this.o.agent);
          } catch (err) {
            this.o.log?.({ msg: 'screen analysis failed', paneId: this.o.paneId, err: String(err) });
            reading = unreadableReading();
          }
        } else {
          // A failed read is "could not tell", never a screen made of error text.
          reading = unreadableReading();
          this.later(RECHECK_MS, () => this.confirmMissing());
          this.mustDeliver = true;
        }
        if (!this.mustDeliver && this.delivered !== null && sameReading(this.delivered, reading)) continue;
        this.mustDeliver = false;
        this.delivered = reading;
        this.o.onReading(reading);
      } while (this.dirty && !this.closed);
    } catch (err) {
      this.o.log?.({ msg: 'pane read failed', paneId: this.o.paneId, err: String(err) });
    } finally {
      this.reading = false;
    }
  }

  private later(ms: number, f: () => Promise<void> | void): void {
    const { clock, onMissing } = this.o;
    if (!clock || !onMissing || !this.o.host.survivesRestart || this.timer !== null || this.closed) return;
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      // Tracked like a read, so settled() also waits for the confirmation.
      if (this.closed) return;
      const done = f(); // first: a read it starts replaces this.idle
      this.idle = Promise.all([this.idle, done]).then(() => {});
    }, ms);
  }

  /** The second read, and if it fails too, what the host says about the pane and its server. */
  private async confirmMissing(): Promise<void> {
    const { host, paneId } = this.o;
    const again = await host.readVisible(paneId).catch(() => ({ ok: false as const, error: 'read threw' }));
    if (this.closed) return;
    if (again.ok) return void this.requestRead();
    const listed = await host.list().catch(() => null);
    const pane = listed?.ok ? listed.panes.find((p) => p.paneId === paneId) : undefined;
    if (this.closed) return;
    if (pane && pane.alive === false) return this.o.onExit(pane.exitCode);
    if (pane) return this.later(RETRY_MS, () => this.requestRead()); // listed: just unreadable
    const server = await host.serverState().catch(() => ({ state: 'unknown' as const }));
    if (this.closed) return;
    // Absent from a list the host vouched for, with its server up: gone. Otherwise could-not-tell.
    const serverUp = listed?.ok === true && server.state === 'running';
    this.o.onMissing?.(serverUp);
    if (!serverUp) this.later(RETRY_MS, () => this.requestRead());
  }

  stop(): void {
    this.closed = true;
    if (this.timer !== null) this.o.clock?.clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}

/** Two readings that tell a worker the same thing, field by field (the dialog compared whole). */
export function sameReading(a: ScreenReading, b: ScreenReading): boolean {
  return a.fingerprint === b.fingerprint && a.state === b.state && a.readable === b.readable && a.awaitingInput === b.awaitingInput &&
    a.blockedReason === b.blockedReason && a.promptBox === b.promptBox && a.promptBoxKind === b.promptBoxKind &&
    a.lastActivity === b.lastActivity && (a.agentError ?? null) === (b.agentError ?? null) &&
    JSON.stringify(a.dialog ?? null) === JSON.stringify(b.dialog ?? null);
}
