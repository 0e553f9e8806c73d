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
 *
 * A repaint need not even be read (issue 26: the read — a tmux round trip, a parse and an
 * analysis — was most of the daemon's cost per streaming worker). When the host names what each
 * burst drew (`changed.repaints`, keys that ignore spinner glyphs and counters), the feed learns
 * which keys are repaints: a burst was read and read exactly as the reading before it, so its keys
 * are repaints of this reading. A later burst made only of such keys, with that same reading
 * still delivered, is not read. Anything else is read as before: a key not seen in this reading
 * (a menu, new text, the turn's end), an unknown burst, a read asked for. Learnt keys are
 * forgotten whenever the reading changes. And while bursts go unread, the pane is read anyway at
 * least every REPAINT_READ_MS, so a key that would have lied (two frames of one key, one of them
 * changing the reading) costs at most that long — and is logged (`repaint skipped a change`).
 *
 * A read may wait its turn at the host (tmux bounds the reads queued in the server, issue 46):
 * a read nobody waits on goes after the others — the once-a-second look at a pane whose bursts
 * went unread, and a burst smaller than a question (SMALL_BURST_BYTES: a spinner tick is ~170
 * bytes as tmux sends it, the mock's question ~1-1.6 KB). A read asked for, a first or failed
 * read, a burst of unknown size and any larger burst are read first.
 *
 * A "could not tell" reading right after a working or a blocked one (a frame caught half drawn: a
 * full-screen redraw between its clear and its repaint, a dialog redrawn and caught before its
 * choices) is held, not delivered, for up to UNSURE_HOLD_MS: the rest of the frame, read a moment
 * later, replaces it. At Claude Code's real byte rate (issue 46) a working pane read as working and
 * unknown by turns, several times a second: a state that flickered on every face, a machine step,
 * a view and a journal row each time; a Qwen Code dialog redrawn under load knocked a blocked
 * worker to "unsure" just as a person answered it. Not after an idle reading: at start-up a screen
 * that stops being idle for a moment (an agent loading a resumed conversation clears and redraws)
 * must reach the machine, whose first prompt waits for the start screen to hold still. A screen
 * that stays unreadable is delivered once the hold is over; a failed read is never held. A read
 * asked for (a caller wants the screen as it is now) is not held either: caught half drawn, the
 * pane is read again at once, up to HALF_DRAWN_REREADS times, and the last is delivered.
 */
import type { ScreenReading } from '../io/screen/types.ts';
import type { Screen } from '../io/screen/types.ts';
import type { TerminalHost } from '../io/terminal/types.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';
import { realClock, type Clock } from './ports.ts';
import { trace } from '../io/terminal/trace-timing.ts';

/** How many times a read asked for, caught half drawn, is read again before it is delivered as it is. */
export const HALF_DRAWN_REREADS = 3;
/** Pause before the confirming second read of a pane whose read failed. */
export const RECHECK_MS = 1_500;
/** While a pane cannot be told apart from a missing one, how often it is looked for again. */
export const RETRY_MS = 15_000;
/** While repaints go unread, the pane is still read at least this often. */
export const REPAINT_READ_MS = 1_000;
/** A burst smaller than this (as the host sent it) is read in the background: it cannot hold a question. */
export const SMALL_BURST_BYTES = 512;
/** How long a could-not-tell reading after a working or blocked one waits for the rest of its frame. */
export const UNSURE_HOLD_MS = 250;
/** Repaint keys remembered per reading (a screen with more distinct repaints is simply read). */
const MAX_REPAINT_KEYS = 64;

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
  /** Skip reading bursts made only of known repaints (default true; KH_REPAINT_FILTER=0 turns it off, for the bench's baseline). */
  skipRepaints?: boolean;
}

/** How many bursts a feed read and skipped, and how often a skipped burst had changed the reading. */
export interface RepaintCounts {
  read: number;
  skipped: number;
  missed: number;
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
  /** Repaint keys that read as the delivered reading; the keys the next read covers (null: unknown). */
  private readonly repaints = new Set<number>();
  private covering: Set<number> | null = new Set();
  /** The largest burst (bytes as the host sent it) the next read covers; null: one of unknown size. */
  private largestBurst: number | null = 0;
  /** A burst went unread since the last read; the timer that reads anyway. */
  private skippedSinceRead = false;
  private repaintTimer: unknown = null;
  /** The next read was started by that timer alone. */
  private byRepaintTimer = false;
  readonly counts: RepaintCounts = { read: 0, skipped: 0, missed: 0 };
  /** A could-not-tell reading waiting for the rest of its frame, and the timer that delivers it. */
  private held: ScreenReading | null = null;
  private holdTimer: unknown = null;

  constructor(private readonly o: PaneFeedOptions) {}

  start(): void {
    this.unsubscribe = this.o.host.subscribe(
      this.o.paneId,
      (ev) => {
        if (this.closed) return;
        if (ev.type === 'changed') this.onChanged(ev.repaints, ev.bytes);
        else if (ev.type === 'exited') {
          // The end speaks for the pane now: a half-drawn screen held before it is not delivered
          // after it. The screen the agent left is read once more and told first: the worker's
          // feed stops when it is gone, and a read still pending then was lost, leaving its last
          // reading a frame caught half drawn (a Codex worker's goodbye read "unknown").
          this.release(false);
          void this.lastLook().then(() => {
            if (!this.closed) this.o.onExit(ev.code);
          });
        }
      },
      // A host can drop a frame of a known key before it arms a timer or sends an event.
      { repaints: { known: (key) => this.knows(key), skipped: () => this.skipped() } },
    );
    this.requestRead();
  }

  /** A read whose reading is delivered even when it reads as the last one did. */
  requestRead(): void {
    this.mustDeliver = true;
    this.schedule();
  }

  /** This key was read, and read as the reading still delivered: a burst of it need not be read. */
  private knows(key: number): boolean {
    return !this.closed && this.o.skipRepaints !== false && !this.mustDeliver && this.delivered?.readable === true && this.repaints.has(key);
  }

  private skipped(): void {
    this.counts.skipped++;
    this.skippedSinceRead = true;
    this.armRepaintRead();
  }

  private onChanged(keys: readonly number[] | undefined, bytes: number | undefined): void {
    if (keys && keys.every((k) => this.knows(k))) return this.skipped();
    this.largestBurst = bytes === undefined || this.largestBurst === null ? null : Math.max(this.largestBurst, bytes);
    if (!keys) this.covering = null;
    else if (this.covering) for (const k of keys) this.covering.add(k);
    this.schedule();
  }

  /** Bursts are going unread: read anyway within REPAINT_READ_MS. */
  private armRepaintRead(): void {
    if (this.repaintTimer !== null || this.closed) return;
    this.repaintTimer = (this.o.clock ?? realClock).setTimeout(() => {
      this.repaintTimer = null;
      if (!this.skippedSinceRead) return;
      this.byRepaintTimer = !this.reading;
      this.schedule();
    }, REPAINT_READ_MS);
  }

  private clearRepaintRead(): void {
    if (this.repaintTimer === null) return;
    (this.o.clock ?? realClock).clearTimeout(this.repaintTimer);
    this.repaintTimer = null;
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
    let rereads = 0;
    try {
      do {
        this.dirty = false;
        // What this read covers: the keys of the bursts that asked for it, and any skipped ones.
        let covering = this.covering;
        let largest = this.largestBurst;
        const byTimer = this.byRepaintTimer;
        this.largestBurst = 0;
        this.byRepaintTimer = false;
        this.covering = new Set();
        this.skippedSinceRead = false;
        this.clearRepaintRead();
        this.counts.read++;
        // Nobody waits on it while every burst it covers is smaller than a question (or it is only
        // the look after skipped repaints) and no read was asked for: asked again while it waits.
        const background = () => {
          const most = largest === null || this.largestBurst === null ? null : Math.max(largest, this.largestBurst);
          return !this.mustDeliver && most !== null && (most > 0 ? most < SMALL_BURST_BYTES : byTimer);
        };
        // A read that waited for its turn covers what came meanwhile: no second read for it.
        const started = () => {
          if (!this.dirty) return;
          this.dirty = false;
          covering = covering === null || this.covering === null ? null : new Set([...covering, ...this.covering]);
          largest = largest === null || this.largestBurst === null ? null : Math.max(largest, this.largestBurst);
          this.covering = new Set();
          this.largestBurst = 0;
          this.skippedSinceRead = false;
          this.clearRepaintRead();
        };
        const res = await this.o.host.readVisible(this.o.paneId, { background, started });
        const onlySkips = byTimer && covering !== null && covering.size === 0;
        if (this.closed) return;
        let reading: ScreenReading;
        if (res.ok) {
          reading = this.analyse(res.screen) ?? unreadableReading();
          if (res.pouring) reading = { ...reading, pouring: true };
        } else {
          // A failed read is "could not tell", never a screen made of error text.
          reading = unreadableReading();
          this.later(RECHECK_MS, () => this.confirmMissing());
          this.mustDeliver = true;
        }
        const same = this.delivered !== null && sameReading(this.delivered, reading);
        if (same && covering && reading.readable) {
          if (this.repaints.size + covering.size > MAX_REPAINT_KEYS) this.repaints.clear();
          for (const k of covering) this.repaints.add(k);
        }
        if (!same) {
          if (onlySkips) {
            this.counts.missed++;
            this.o.log?.({ msg: 'repaint skipped a change', paneId: this.o.paneId, state: reading.state });
          }
          this.repaints.clear();
        }
        if (!this.mustDeliver && same) {
          this.release(false);
          continue;
        }
        if (res.ok && this.mayBeHalfDrawn(reading)) {
          if (!this.mustDeliver) {
            this.hold(reading);
            continue;
          }
          // Asked for: the rest of the frame is read now, a bounded number of times.
          if (rereads < HALF_DRAWN_REREADS) {
            rereads++;
            this.dirty = true;
            continue;
          }
        }
        rereads = 0;
        this.release(false);
        this.deliver(reading);
      } while (this.dirty && !this.closed);
    } catch (err) {
      this.o.log?.({ msg: 'pane read failed', paneId: this.o.paneId, err: String(err) });
    } finally {
      this.reading = false;
    }
  }

  private deliver(reading: ScreenReading): void {
    this.mustDeliver = false;
    this.delivered = reading;
    trace(this.o.paneId, 'deliver', { state: reading.state, awaiting: reading.awaitingInput });
    this.o.onReading(reading);
  }

  private mayBeHalfDrawn(reading: ScreenReading): boolean {
    return mayBeHalfDrawn(this.delivered, reading);
  }

  /** Keeps the latest such reading; the bound runs from the first, so a lasting one is late by at most UNSURE_HOLD_MS. */
  private hold(reading: ScreenReading): void {
    this.held = reading;
    if (this.holdTimer !== null) return;
    this.holdTimer = (this.o.clock ?? realClock).setTimeout(() => {
      this.holdTimer = null;
      this.release(!this.closed);
    }, UNSURE_HOLD_MS);
  }

  /** The screen the host kept after the pane's end, read whole and delivered if it says anything new. */
  private async lastLook(): Promise<void> {
    await this.idle;
    if (this.closed) return;
    const res = await this.o.host.readVisible(this.o.paneId).catch(() => null);
    if (this.closed || !res?.ok) return;
    const reading = this.analyse(res.screen);
    if (reading !== null && (this.delivered === null || !sameReading(this.delivered, reading))) this.deliver(reading);
  }

  /** The profile's reading of a screen; null (logged) when the analysis throws. */
  private analyse(screen: Screen): ScreenReading | null {
    try {
      return this.o.analyse(screen, this.o.agent);
    } catch (err) {
      this.o.log?.({ msg: 'screen analysis failed', paneId: this.o.paneId, err: String(err) });
      return null;
    }
  }

  /** Ends a hold: its reading delivered (the bound passed) or dropped (a newer reading replaced it). */
  private release(deliverHeld: boolean): void {
    if (this.holdTimer !== null) (this.o.clock ?? realClock).clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const held = this.held;
    this.held = null;
    if (deliverHeld && held !== null) this.deliver(held);
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
    this.clearRepaintRead();
    this.release(false);
    if (this.timer !== null) this.o.clock?.clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}

/** Could not tell, just after a working or blocked reading: maybe a frame caught half drawn (held or read again). */
export function mayBeHalfDrawn(delivered: ScreenReading | null, reading: ScreenReading): boolean {
  return reading.state === 'unknown' && !reading.awaitingInput && (delivered?.state === 'working' || delivered?.state === 'blocked');
}

/** Two readings that tell a worker the same thing, field by field (the dialog compared whole). */
export function sameReading(a: ScreenReading, b: ScreenReading): boolean {
  return a.fingerprint === b.fingerprint && a.state === b.state && a.readable === b.readable && a.awaitingInput === b.awaitingInput &&
    a.blockedReason === b.blockedReason && a.promptBox === b.promptBox && a.promptBoxKind === b.promptBoxKind &&
    a.lastActivity === b.lastActivity && (a.agentError ?? null) === (b.agentError ?? null) && (a.startingUp ?? false) === (b.startingUp ?? false) &&
    (a.pouring ?? false) === (b.pouring ?? false) &&
    JSON.stringify(a.dialog ?? null) === JSON.stringify(b.dialog ?? null);
}
