/**
 * Per-pane event fan-out shared by the hosts: listeners per pane, and the `changed` coalescer.
 *
 * `changed` is a throttle with a trailing edge, not a debounce: the first burst of output arms
 * one timer and everything until it fires folds into one event. A pure debounce would never fire
 * while an agent streams continuously (a spinner redraws ~10 times a second), so a menu drawn
 * mid-stream would go unnoticed until the stream paused.
 *
 * A host that can tell what each burst drew (tmux: the key of every `%output` frame,
 * tmux/repaint-key.ts) passes it to `touch`; the `changed` event then lists the keys of the frames
 * it folds (`repaints`). One output whose key is unknown makes the whole event's list unknown.
 *
 * A host whose output comes cut into pieces it did not choose (tmux at load, issue 46) passes
 * each `piece` instead, and gives the key of the whole burst when its window ends (`burstKey`):
 * a burst made only of keys every listener knows is then counted skipped and emits nothing.
 * That decision waits for the window (a piece cannot tell whether the frame is whole), so every
 * burst arms the timer; it is the same window and wait as an unknown frame had.
 *
 * A pane that pours (issue 46: Claude Code at its real byte rate rewrites its live area sixty
 * times a second and never pauses for a window) is not announced every window: each `changed`
 * costs its listener a screen read, and at twenty such panes the reads were most of the daemon's
 * time. A burst that drew through its whole window within POUR_MS of the pane's last `changed`,
 * the pane still drawing, waits until the pane pauses for PAUSE_MS (a question is drawn and then
 * waits; a renderer's next frame comes sooner) or until POUR_MS has passed since that `changed`.
 * A pane that was quiet, and a frame drawn at once (a question just after the working frame), are
 * announced after the window as before; a pane that keeps drawing is still announced every
 * POUR_MS.
 */
import type { PaneEvent, PaneSubscribeOptions } from './types.ts';
import { trace } from './trace-timing.ts';

export type PaneListener = (event: PaneEvent) => void;

/** A pane announced less than this long ago that is still drawing waits for a pause (or this long) before the next `changed`. */
export const POUR_MS = 250;
/** Silence after a burst that counts as a pause in the drawing: longer than a renderer's gap between frames (30 a second). */
export const PAUSE_MS = 50;
/**
 * A burst whose output went on for this share of its window or more pours (a renderer's frames
 * 16 ms apart); one drawn at once (a question after the working frame, a spinner tick) does not,
 * and is announced after its window however recently the pane was.
 */
const POUR_SPAN = 0.75;

export class PaneEventBus {
  /** Each pane's listeners, with what each can tell of known repaints (PaneSubscribeOptions), if anything. */
  private readonly listeners = new Map<string, Map<PaneListener, PaneSubscribeOptions['repaints']>>();
  private readonly pending = new Map<string, Burst>();
  /** When each pane's last `changed` was emitted (performance.now()). */
  private readonly announced = new Map<string, number>();
  /** `exited` is sticky: a listener that subscribes after the fact still hears it. */
  private readonly exits = new Map<string, PaneEvent>();

  /**
   * `burstKey`: the key of what a pane drew since it was last asked (undefined: unknown), for
   * bursts that came as `piece`s. `onAnnounce`: told of each `changed` as it goes out, and whether
   * the pane poured (it waited for POUR_MS and was still drawing): the tmux host hushes such a
   * pane until its next read (tmux/pour-hush.ts).
   */
  constructor(
    private readonly coalesceMs = 20,
    private readonly burstKey?: (paneId: string) => number | undefined,
    private readonly onAnnounce?: (paneId: string, poured: boolean) => void,
  ) {}

  subscribe(paneId: string, listener: PaneListener, options?: PaneSubscribeOptions): () => void {
    let set = this.listeners.get(paneId);
    if (!set) this.listeners.set(paneId, (set = new Map()));
    set.set(listener, options?.repaints);
    const exit = this.exits.get(paneId);
    if (exit) {
      queueMicrotask(() => {
        if (set.has(listener)) listener(exit);
      });
    }
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(paneId) === set) this.listeners.delete(paneId);
    };
  }

  /** Output arrived (`repaint`: the key of what it drew, if known; `bytes`: its length, if known): emit `changed` at most once per coalescing window. */
  touch(paneId: string, repaint?: number, bytes?: number): void {
    const waiting = this.pending.get(paneId);
    if (!waiting && repaint !== undefined && this.allKnow(paneId, [repaint])) return void trace(paneId, 'skip-known');
    if (waiting) {
      waiting.last = performance.now();
      waiting.bytes = bytes === undefined || waiting.bytes === null ? null : waiting.bytes + bytes;
      if (repaint === undefined) waiting.repaints = null;
      else if (waiting.repaints && !waiting.repaints.includes(repaint)) waiting.repaints.push(repaint);
      return;
    }
    this.arm(paneId, repaint === undefined ? null : [repaint], bytes, false);
  }

  /**
   * A piece of output whose key the host gives when the burst ends (`burstKey`): folded into the
   * waiting burst, or the start of one. Whether it was a known repaint is asked at the window's end.
   */
  piece(paneId: string, bytes?: number): void {
    const waiting = this.pending.get(paneId);
    if (!waiting) return this.arm(paneId, this.burstKey ? [] : null, bytes, true);
    waiting.last = performance.now();
    waiting.bytes = bytes === undefined || waiting.bytes === null ? null : waiting.bytes + bytes;
    if (!this.burstKey) waiting.repaints = null;
    waiting.pieces = true;
  }

  private arm(paneId: string, repaints: number[] | null, bytes: number | undefined, pieces: boolean): void {
    const timer = setTimeout(() => this.due(paneId), this.coalesceMs);
    timer.unref?.();
    const now = performance.now();
    this.pending.set(paneId, { timer, repaints, bytes: bytes ?? null, pieces, first: now, last: now, stretched: false });
  }

  /**
   * The burst's window is over: skipped if every listener knows what it drew, else announced —
   * now, unless the pane pours (announced a moment ago and still drawing): then it waits for a
   * pause, and what comes meanwhile joins it.
   */
  private due(paneId: string): void {
    const waiting = this.pending.get(paneId);
    if (!waiting || this.skipKnown(paneId, waiting)) return;
    const now = performance.now();
    const sinceAnnounced = now - (this.announced.get(paneId) ?? -Infinity);
    const quietFor = now - waiting.last;
    // Pouring: drawing through (nearly) the whole window, or already waiting for a pause.
    const pours = waiting.stretched || waiting.last - waiting.first >= this.coalesceMs * POUR_SPAN;
    if (pours && sinceAnnounced < POUR_MS && quietFor < PAUSE_MS) {
      waiting.timer = setTimeout(() => this.due(paneId), Math.min(PAUSE_MS - quietFor, POUR_MS - sinceAnnounced));
      waiting.timer.unref?.();
      waiting.stretched = true;
      return;
    }
    this.announce(paneId, waiting, waiting.stretched && quietFor < PAUSE_MS);
  }

  /** A burst that came in pieces has its key now, however the host cut them; one of only known keys is dropped (true). */
  private skipKnown(paneId: string, waiting: Burst): boolean {
    if (!waiting.pieces) return false;
    waiting.pieces = false;
    const key = this.burstKey?.(paneId);
    if (key === undefined) waiting.repaints = null;
    else if (waiting.repaints && !waiting.repaints.includes(key)) waiting.repaints.push(key);
    if (!waiting.repaints || waiting.repaints.length === 0 || !this.allKnow(paneId, waiting.repaints)) return false;
    clearTimeout(waiting.timer);
    this.pending.delete(paneId);
    trace(paneId, 'skip-known');
    return true;
  }

  /**
   * The pane drew what the host did not hear (its output was paused, tmux/pour-hush.ts): announced
   * now, as output of unknown content, with any burst still waiting folded in.
   */
  unseen(paneId: string): void {
    this.announce(paneId, { repaints: null, bytes: null });
  }

  /** `changed` with what the burst drew, and any burst still waiting for the pane dropped (it is in this one). */
  private announce(paneId: string, drew: Pick<Burst, 'repaints' | 'bytes'>, poured = false): void {
    clearTimeout(this.pending.get(paneId)?.timer);
    this.pending.delete(paneId);
    trace(paneId, 'changed');
    this.announced.set(paneId, performance.now());
    this.onAnnounce?.(paneId, poured);
    this.emit(paneId, { type: 'changed', ...(drew.repaints && { repaints: drew.repaints }), ...(drew.bytes !== null && { bytes: drew.bytes }) });
  }

  /**
   * Every listener of the pane knows these frames' keys (and there is one): each is told it was
   * skipped, and no `changed` is armed for it. A burst already waiting is never cut short here.
   */
  private allKnow(paneId: string, keys: readonly number[]): boolean {
    const set = this.listeners.get(paneId);
    if (!set || set.size === 0) return false;
    for (const repaints of set.values()) if (!repaints || !keys.every((k) => repaints.known(k))) return false;
    for (const repaints of set.values()) repaints!.skipped();
    return true;
  }

  /**
   * Someone shows the pane as it draws: a listener that cannot tell repaints (the review page's
   * live screen, a key waiting for its echo). Such a pane is not hushed (tmux/pour-hush.ts).
   */
  shownLive(paneId: string): boolean {
    for (const repaints of this.listeners.get(paneId)?.values() ?? []) if (!repaints) return true;
    return false;
  }

  /** Emit any `changed` still waiting now (used before `exited`, so order is changed → exited). */
  flush(paneId: string): void {
    const waiting = this.pending.get(paneId);
    if (waiting && !this.skipKnown(paneId, waiting)) this.announce(paneId, waiting);
  }

  hasExited(paneId: string): boolean {
    return this.exits.has(paneId);
  }

  /** Reports the pane's exit once; later calls are ignored. Pending output is announced first. */
  exit(paneId: string, code: number | null): void {
    if (this.exits.has(paneId)) return;
    this.flush(paneId);
    const event: PaneEvent = { type: 'exited', code };
    this.exits.set(paneId, event);
    this.emit(paneId, event);
  }

  emit(paneId: string, event: PaneEvent): void {
    for (const listener of [...(this.listeners.get(paneId)?.keys() ?? [])]) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not stop the others or the host's reader loop.
      }
    }
  }

  /** Drop a pane's timers and remembered exit (listeners stay: a subscriber may await a late event). */
  forget(paneId: string): void {
    const waiting = this.pending.get(paneId);
    if (waiting) clearTimeout(waiting.timer);
    if (waiting?.pieces) this.burstKey?.(paneId); // the dropped burst's key is not the start of the next
    this.pending.delete(paneId);
    this.announced.delete(paneId);
    this.exits.delete(paneId);
  }

  clear(): void {
    for (const waiting of this.pending.values()) clearTimeout(waiting.timer);
    this.pending.clear();
    this.announced.clear();
    this.exits.clear();
    this.listeners.clear();
  }
}

/** Output waiting to be announced: what it drew (keys, bytes), whether it came in pieces, and when the last of it came. */
interface Burst {
  timer: NodeJS.Timeout;
  repaints: number[] | null;
  bytes: number | null;
  pieces: boolean;
  /** When its first and its last output came. */
  first: number;
  last: number;
  /** It waited past its window because the pane pours. */
  stretched: boolean;
}
