/**
 * A hook that could not hand its note to a running daemon within its bound (the daemon busy)
 * queues it; the daemon drains that queue while it runs (daemon/fleet/hook-handlers.ts
 * `watchHookQueue`), not only at its next start. And a line the hook appends just after the drain
 * renamed the queue away is written again to the queue there now (`appendToQueue`), so the
 * rename cannot swallow it.
 */
import { readFileSync, renameSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendToQueue } from '../../cli/commands/hook.ts';
import { hookQueuePath, type HookNote } from '../../contract/hook-note.ts';
import { drainingPathOf, watchHookQueue } from '../../daemon/fleet/hook-handlers.ts';
import { openPrivateAppend } from '../../io/fs/private-files.ts';
import { hookCapability } from '../../io/agent/claude/hook-capability.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const temps: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const t of temps.splice(0)) t.cleanup();
});

function stateDir(): string {
  const tmp = makeTempDir('hook-queue-live');
  temps.push(tmp);
  writeFileSync(join(tmp.path, 'fleet.db'), '');
  return tmp.path;
}

/** A note as `hand hook` queues it: with its worker's capability (a queued note without one is refused). */
const note = (event: string, at: number, home?: string): HookNote => ({ id: 'w1', event, at, ...(home ? { cap: hookCapability(home, 'w1') } : {}) });

/** Queues notes as `hand hook` does when the daemon does not answer. */
const queueNotes = (home: string, ...notes: HookNote[]): void => appendToQueue(hookQueuePath(home), notes.map((n) => `${JSON.stringify(n)}\n`).join(''));

/** A fleet that records the notes applied to it, each held until `held` settles when given. */
const fleetHearing = (heard: HookNote[], held?: Promise<void>) => ({
  hook: async (n: HookNote) => {
    heard.push(n);
    await held;
    return { id: n.id, condition: 'settled' } as never;
  },
});

describe('a note queued beside a running daemon', () => {
  it('is applied within a look of the watch, in the order the hooks fired, and the queue is gone', async () => {
    const home = stateDir();
    const heard: HookNote[] = [];
    const watch = watchHookQueue(home, fleetHearing(heard), () => {}, 20);
    try {
      queueNotes(home, note('Stop', 2000, home));
      queueNotes(home, note('UserPromptSubmit', 1000, home));
      await waitFor(() => heard.length === 2, { what: 'both queued notes applied by the watch', timeoutMs: 5000 });
      expect(heard.map((n) => n.event)).toEqual(['UserPromptSubmit', 'Stop']);
      expect(existsSync(hookQueuePath(home))).toBe(false);
      // A later note is taken by a later look.
      queueNotes(home, note('Notification', 3000, home));
      await waitFor(() => heard.length === 3, { what: 'the later queued note applied', timeoutMs: 5000 });
    } finally {
      await watch.close();
    }
    // Closed: nothing more is read.
    queueNotes(home, note('Stop', 4000, home));
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toHaveLength(3);
    expect(existsSync(hookQueuePath(home))).toBe(true);
  });

  it('close waits for a drain under way: the daemon does not close its store under a note being applied', async () => {
    const home = stateDir();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const heard: HookNote[] = [];
    const watch = watchHookQueue(home, fleetHearing(heard, held), () => {}, 20);
    queueNotes(home, note('Stop', 1000, home));
    await waitFor(() => heard.length === 1, { what: 'the drain to reach the fleet', timeoutMs: 5000 });
    // Looks go on while the drain is held (three of them at 20 ms).
    await new Promise((r) => setTimeout(r, 60));
    let closed = false;
    const closing = watch.close().then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    expect(closed, 'close returned while a drain was still applying a note').toBe(false);
    release();
    await closing;
    expect(heard).toHaveLength(1);
  });

  it("a note without its worker's capability, queued beside the running daemon, is dropped: the queue is no way around the capability", async () => {
    const home = stateDir();
    const heard: HookNote[] = [];
    const logged: string[] = [];
    const watch = watchHookQueue(home, fleetHearing(heard), (_obj, msg) => logged.push(msg ?? ''), 20);
    try {
      const forged = { ...note('Notification', 1000, home), cap: '0'.repeat(32) };
      const bare = note('Notification', 1001);
      queueNotes(home, forged, bare, note('Stop', 1002, home));
      await waitFor(() => heard.length === 1 && !existsSync(hookQueuePath(home)), { what: 'the drain of the queue with two forged notes', timeoutMs: 5000 });
      expect(heard.map((n) => n.event)).toEqual(['Stop']);
      expect(logged.filter((m) => m === 'queued hook note dropped')).toHaveLength(2);
    } finally {
      await watch.close();
    }
  });

  it('a line written after the drain renamed the queue away is written again to the queue there now', () => {
    const home = stateDir();
    const queue = hookQueuePath(home);
    let renamed = false;
    // The drain's rename lands between the hook's open and its write.
    const openThenRenamed = (path: string): number => {
      const fd = openPrivateAppend(path);
      if (!renamed) {
        renameSync(path, drainingPathOf(path));
        renamed = true;
      }
      return fd;
    };
    const line = `${JSON.stringify(note('Stop', 1000))}\n`;
    appendToQueue(queue, line, openThenRenamed);
    expect(readFileSync(queue, 'utf8')).toBe(line);
    // Without the check it would be only here, in the file the drain may have read already.
    expect(readFileSync(drainingPathOf(queue), 'utf8')).toBe(line);
  });

  it('a line the queue kept is written once', () => {
    const home = stateDir();
    const line = `${JSON.stringify(note('Stop', 1000))}\n`;
    appendToQueue(hookQueuePath(home), line);
    appendToQueue(hookQueuePath(home), line);
    expect(readFileSync(hookQueuePath(home), 'utf8')).toBe(line + line);
  });
});
