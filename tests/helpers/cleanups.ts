/**
 * The teardown list many test files wrote again (`const cleanups = []; afterEach(… reverse …)`),
 * once: a file (or describe block) calls useCleanups() and hands every server, pane and dir it
 * makes to the returned function; after each test they are undone newest first, so a server is
 * killed before the dir that holds its socket is removed.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';

export type Cleanup = () => Promise<void> | void;

/** Registers the undoing, newest first, after each test; returns the function that queues one. */
export function useCleanups(): (cleanup: Cleanup) => void {
  const queued: Cleanup[] = [];
  afterEach(async () => {
    for (const c of queued.splice(0).reverse()) await c();
  });
  return (cleanup) => {
    queued.push(cleanup);
  };
}

/**
 * A world made once before the tests of the file (or describe block) and cleaned up after them,
 * the before/after pair many files wrote out. `made` takes it (and may prepare more: the world is
 * cleaned up even when that fails); `timeoutMs` bounds the making.
 */
export function useWorldForAll<W extends { cleanup(): Promise<void> }>(make: () => Promise<W>, made: (w: W) => void | Promise<void>, timeoutMs = 60_000): void {
  let world: W | undefined;
  beforeAll(async () => {
    world = await make();
    await made(world);
  }, timeoutMs);
  afterAll(async () => {
    await world?.cleanup();
  }, 60_000);
}
