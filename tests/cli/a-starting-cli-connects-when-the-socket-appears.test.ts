/**
 * `hand` waiting for a daemon it started naps between connection attempts; a nap ends the moment
 * the daemon's socket file appears in the state directory, not only when its timer fires (a
 * resume's clock runs until that connect). Another file appearing does not end it.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { socketAppearance } from '../../cli/client.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();
const LONG_NAP_MS = 20_000;

/** Whether the nap ended before `boundMs`, with the bound named if it did not. */
function endedWithin(nap: Promise<void>, boundMs: number): Promise<boolean> {
  return Promise.race([nap.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), boundMs).unref())]);
}

describe('a nap while the daemon starts', () => {
  it('ends when the socket is bound, and not when another file is written', async () => {
    const dir = tempDir('socket-appears');
    const socket = join(dir, 'hand.sock');
    const appeared = socketAppearance(socket);
    const server = createServer();
    try {
      const nap = appeared.nap(LONG_NAP_MS);
      writeFileSync(join(dir, 'daemon.out'), 'starting\n');
      expect(await endedWithin(nap, 300), 'a nap ended by a file that is not the socket').toBe(false);
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      expect(await endedWithin(nap, 10_000), `the nap did not end within 10 s of ${socket} being bound`).toBe(true);
    } finally {
      appeared.close();
      server.close();
    }
  });
});
