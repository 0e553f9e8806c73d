/**
 * Feeds one pane into one worker: a `changed` event (or a request) becomes ONE viewport read,
 * analysed into a ScreenReading; `exited` becomes the exit. Reads are coalesced — a burst of
 * changes while a read is in flight costs one more read, not one per change — and the last
 * read always follows the last change, so the machine never rests on a stale screen.
 */
import type { ScreenReading } from '../io/screen/types.ts';
import type { Screen } from '../io/screen/types.ts';
import type { TerminalHost } from '../io/terminal/types.ts';
import { unreadableReading } from '../io/screen/unreadable.ts';

export interface PaneFeedOptions {
  host: TerminalHost;
  paneId: string;
  agent: string;
  analyse(screen: Screen, agent: string): ScreenReading;
  onReading(reading: ScreenReading): void;
  onExit(code: number | null): void;
  log?: (obj: Record<string, unknown>) => void;
}

export class PaneFeed {
  private unsubscribe: (() => void) | null = null;
  private reading = false;
  private dirty = false;
  private closed = false;
  /** Settles when no read is in flight (tests and shutdown wait on it). */
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly o: PaneFeedOptions) {}

  start(): void {
    this.unsubscribe = this.o.host.subscribe(this.o.paneId, (ev) => {
      if (this.closed) return;
      if (ev.type === 'changed') this.requestRead();
      else if (ev.type === 'exited') this.o.onExit(ev.code);
    });
    this.requestRead();
  }

  requestRead(): void {
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
        }
        this.o.onReading(reading);
      } while (this.dirty && !this.closed);
    } catch (err) {
      this.o.log?.({ msg: 'pane read failed', paneId: this.o.paneId, err: String(err) });
    } finally {
      this.reading = false;
    }
  }

  stop(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
