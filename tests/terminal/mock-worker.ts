/**
 * Test plumbing for terminal hosts: launching the mock agent in a pane and waiting, event by
 * event, for a screen reading that satisfies a condition.
 */
import { oneRunAtATime } from '../../io/time/one-run-at-a-time.ts';
import { join, resolve } from 'node:path';
import { analyseScreen, type Screen, type ScreenReading } from '../../io/screen/index.ts';
import { buildWorkerEnv } from '../../io/terminal/worker-env.ts';
import type { PaneEvent, PaneInfo, TerminalHost } from '../../io/terminal/types.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const MOCK_AGENT = join(ROOT, 'bin', 'mock-agent.js');

/** Fast mock timings: a tick of 100 ms, short replies, a "slow" turn long enough to be seen working. */
export const MOCK_TIMINGS = { KH_MOCK_TICK_MS: '100', KH_MOCK_REPLY_MS: '300', KH_MOCK_SLOW_MS: '2500' };

export interface MockLaunch {
  name: string;
  /** Used as the worker's cwd and HOME. */
  dir: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** The program that runs the mock (default this node on bin/mock-agent.js): a far side has its own copy. */
  program?: readonly string[];
}

export function mockSpec(launch: MockLaunch) {
  return {
    name: launch.name,
    cwd: launch.dir,
    env: buildWorkerEnv(process.env, { add: { HOME: launch.dir, ...MOCK_TIMINGS, ...launch.env } }),
    argv: [...(launch.program ?? [process.execPath, MOCK_AGENT]), '--skip-trust'],
    ...(launch.cols !== undefined && { cols: launch.cols }),
    ...(launch.rows !== undefined && { rows: launch.rows }),
  };
}

export function screenText(screen: Screen): string {
  return screen.lines.map((l) => l.text).join('\n');
}

export interface Seen {
  reading: ScreenReading;
  screen: Screen;
}

/**
 * Resolves with the first reading that `accept`s, reading once now and again after every
 * `changed` event (never on a timer). Rejects after `timeoutMs` naming `what` and showing the
 * last screen.
 */
export function waitForReading(
  host: TerminalHost,
  paneId: string,
  accept: (reading: ScreenReading, screen: Screen) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<Seen> {
  return new Promise<Seen>((resolvePromise, reject) => {
    let last = '(no screen read yet)';
    let finished = false;
    const finish = (err: Error | null, seen?: Seen) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      unsubscribe();
      if (err) reject(err);
      else resolvePromise(seen!);
    };
    // One read at a time; a change during a read asks for one more after it.
    const check = oneRunAtATime(async () => {
      const read = await host.readVisible(paneId);
      if (finished) return false;
      if (!read.ok) {
        last = `(read failed: ${read.error})`;
        return;
      }
      last = screenText(read.screen);
      const r = analyseScreen(read.screen);
      if (accept(r, read.screen)) {
        finish(null, { reading: r, screen: read.screen });
        return false;
      }
    });
    const timer = setTimeout(
      () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last screen:\n${last}`)),
      timeoutMs,
    );
    const unsubscribe = host.subscribe(paneId, (event: PaneEvent) => {
      if (event.type === 'changed' || event.type === 'exited') void check();
    });
    void check();
  });
}

/**
 * Waits until the pane has drawn nothing for `quietMs` (no `changed` event), bounded by
 * `timeoutMs`. What the product does before its first prompt (STARTUP_SETTLE_MS): an agent that
 * has just drawn its box may still be starting, and an Enter typed then can be lost.
 */
export function waitForQuiet(host: TerminalHost, paneId: string, quietMs: number, what: string, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let quiet = setTimeout(done, quietMs);
    const deadline = setTimeout(() => {
      clearTimeout(quiet);
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${quietMs} ms without a redraw)`));
    }, timeoutMs);
    const unsubscribe = host.subscribe(paneId, (event) => {
      if (event.type !== 'changed') return;
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    });
    function done(): void {
      clearTimeout(deadline);
      unsubscribe();
      resolvePromise();
    }
  });
}

/** Waits for the pane's `exited` event (sticky: also delivered if it already happened). */
export function waitForExit(host: TerminalHost, paneId: string, what: string, timeoutMs = 20_000): Promise<number | null> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const unsubscribe = host.subscribe(paneId, (event) => {
      if (event.type !== 'exited') return;
      clearTimeout(timer);
      unsubscribe();
      resolvePromise(event.code);
    });
  });
}

export const isIdleEmpty = (r: ScreenReading) => r.state === 'idle' && r.promptBoxKind === 'empty';

/** Creates a mock worker and waits for its first idle screen. */
export async function startMock(host: TerminalHost, launch: MockLaunch): Promise<{ pane: PaneInfo; idle: Seen }> {
  const pane = await host.createPane(mockSpec(launch));
  const idle = await waitForReading(host, pane.paneId, isIdleEmpty, `${launch.name}: the first idle box`, 30_000);
  return { pane, idle };
}
