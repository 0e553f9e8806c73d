/**
 * Shared test plumbing: temp dirs and bounded waits. Every temp dir a test makes starts with
 * `kh-test-` so the global teardown can prove nothing was left behind.
 */
import { mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_PREFIX = 'kh-test-';

/**
 * The prefix of this run's names: `kh-test-<run>-` under vitest (the global setup sets
 * KH_TEST_RUN), so the leak check counts only what this run made, not another run's files on
 * the same machine.
 */
export function runPrefix(): string {
  const run = process.env.KH_TEST_RUN;
  return run ? `${TEST_PREFIX}${run}-` : TEST_PREFIX;
}

/** A fresh directory (real path, symlinks resolved) and its cleanup. */
export function makeTempDir(label = 'dir'): { path: string; cleanup: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `${runPrefix()}${label}-`)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A name for a private tmux server (`tmux -L <name>`), recognisable by the leak check. */
export function uniqueTmuxName(label = 'tmux'): string {
  return `${runPrefix()}${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface WaitOptions {
  /** What is being awaited, for the failure message. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Re-evaluates `probe` until it returns a value other than undefined/false.
 * Used only where the thing under test offers no event to wait on (a file appearing, a
 * process leaving); the bound and the message make a hang a clear failure.
 */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, opts: WaitOptions): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const intervalMs = opts.intervalMs ?? 25;
  const start = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() - start > timeoutMs) {
      const tail = lastError ? ` (last error: ${String(lastError)})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what}${tail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Polls `read` (bounded) until `check` holds and gives that value; the failure says what was
 * awaited and the last value read. For a value that must be seen, where waitFor's probe returns
 * only a yes.
 */
export async function until<T>(what: string, read: () => Promise<T> | T, check: (v: T) => boolean, boundMs = 20_000, intervalMs = 50): Promise<T> {
  const end = Date.now() + boundMs;
  for (;;) {
    const v = await read();
    if (check(v)) return v;
    if (Date.now() > end) throw new Error(`timed out after ${boundMs} ms waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Resolves when `subscribe` delivers an event accepted by `accept`, or rejects after the bound. */
export function waitForEvent<E>(
  subscribe: (listener: (e: E) => void) => () => void,
  accept: (e: E) => boolean,
  opts: WaitOptions,
): Promise<E> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    let unsubscribe: () => void = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what}`));
    }, timeoutMs);
    unsubscribe = subscribe((e) => {
      if (!accept(e)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(e);
    });
  });
}
