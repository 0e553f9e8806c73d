/**
 * Reads the mock agent's event log (KH_MOCK_EVENT_LOG): one JSON line per significant draw,
 * stamped with the agent's own clock just before the frame is written.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface MockEvent {
  event: string;
  t: number;
  pid: number;
}

export function readEvents(file: string): MockEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as MockEvent];
      } catch {
        return [];
      }
    });
}

/** The first `event` logged at or after `after` (ms since the epoch), or undefined. */
export function eventAfter(file: string, event: string, after: number): MockEvent | undefined {
  return readEvents(file).find((e) => e.event === event && e.t >= after);
}

/** Bounded wait for an event line to appear (the agent writes it synchronously before its frame). */
export async function awaitEvent(file: string, event: string, after: number, timeoutMs = 20_000): Promise<MockEvent> {
  const start = Date.now();
  for (;;) {
    const e = eventAfter(file, event, after);
    if (e) return e;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for the mock agent to log ${event} in ${file}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
