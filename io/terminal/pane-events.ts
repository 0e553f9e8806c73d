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
 */
import type { PaneEvent, PaneSubscribeOptions } from './types.ts';
import { trace } from './trace-timing.ts';

export type PaneListener = (event: PaneEvent) => void;

export class PaneEventBus {
  /** Each pane's listeners, with what each can tell of known repaints (PaneSubscribeOptions), if anything. */
  private readonly listeners = new Map<string, Map<PaneListener, PaneSubscribeOptions['repaints']>>();
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; repaints: number[] | null; bytes: number | null }>();
  /** `exited` is sticky: a listener that subscribes after the fact still hears it. */
  private readonly exits = new Map<string, PaneEvent>();

  constructor(private readonly coalesceMs = 20) {}

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
    if (!waiting && repaint !== undefined && this.allKnow(paneId, repaint)) return void trace(paneId, 'skip-known');
    if (waiting) {
      waiting.bytes = bytes === undefined || waiting.bytes === null ? null : waiting.bytes + bytes;
      if (repaint === undefined) waiting.repaints = null;
      else if (waiting.repaints && !waiting.repaints.includes(repaint)) waiting.repaints.push(repaint);
      return;
    }
    const timer = setTimeout(() => this.flush(paneId), this.coalesceMs);
    timer.unref?.();
    this.pending.set(paneId, { timer, repaints: repaint === undefined ? null : [repaint], bytes: bytes ?? null });
  }

  /**
   * Every listener of the pane knows this frame's key (and there is one): each is told it was
   * skipped, and no `changed` is armed for it. A burst already waiting is never cut short here.
   */
  private allKnow(paneId: string, key: number): boolean {
    const set = this.listeners.get(paneId);
    if (!set || set.size === 0) return false;
    for (const repaints of set.values()) if (!repaints?.known(key)) return false;
    for (const repaints of set.values()) repaints!.skipped();
    return true;
  }

  /** Emit any `changed` still waiting now (used before `exited`, so order is changed → exited). */
  flush(paneId: string): void {
    const waiting = this.pending.get(paneId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(paneId);
    trace(paneId, 'changed');
    this.emit(paneId, { type: 'changed', ...(waiting.repaints && { repaints: waiting.repaints }), ...(waiting.bytes !== null && { bytes: waiting.bytes }) });
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
    this.pending.delete(paneId);
    this.exits.delete(paneId);
  }

  clear(): void {
    for (const waiting of this.pending.values()) clearTimeout(waiting.timer);
    this.pending.clear();
    this.exits.clear();
    this.listeners.clear();
  }
}
