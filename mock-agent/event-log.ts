/**
 * Benchmark hooks: with KH_MOCK_EVENT_LOG=<file>, one JSON line per significant draw is appended
 * synchronously just before the frame is written, so a benchmark can compare the moment a state
 * was drawn with the moment a supervisor noticed it. Time is `performance.timeOrigin +
 * performance.now()` (milliseconds since the epoch, sub-millisecond precision).
 */
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';

export type MockEventName =
  | 'trust-drawn'
  | 'ready'
  | 'turn-started'
  | 'menu-drawn'
  | 'permission-drawn'
  | 'stop-hook-started'
  | 'turn-finished'
  | 'turn-interrupted'
  | 'exiting';

export interface MockEvent {
  event: MockEventName;
  t: number;
  /** In kingshand's sandbox this is the pid inside its own process namespace (every worker's agent may be 2). */
  pid: number;
  /** This process, uniquely: a random id made at its start (pids are not unique across sandboxes). */
  instance: string;
  [extra: string]: unknown;
}

export class EventLog {
  private queued: MockEvent[] = [];
  private readonly instance = randomBytes(8).toString('hex');
  constructor(private readonly path: string | undefined) {}

  /** Queues an event for the next frame; `flush` writes it right before that frame. */
  note(event: MockEventName, extra: Record<string, unknown> = {}): void {
    if (!this.path) return;
    this.queued.push({ event, t: performance.timeOrigin + performance.now(), pid: process.pid, instance: this.instance, ...extra });
  }

  flush(): void {
    if (!this.path || this.queued.length === 0) return;
    const lines = this.queued.map((e) => JSON.stringify(e)).join('\n') + '\n';
    this.queued = [];
    try {
      appendFileSync(this.path, lines);
    } catch {
      // A benchmark's log must never take the agent down.
    }
  }
}
