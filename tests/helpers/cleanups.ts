/**
 * The teardown list many test files wrote again (`const cleanups = []; afterEach(… reverse …)`),
 * once: a file (or describe block) calls useCleanups() and hands every server, pane and dir it
 * makes to the returned function; after each test they are undone newest first, so a server is
 * killed before the dir that holds its socket is removed.
 */
import { afterEach } from 'vitest';

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
