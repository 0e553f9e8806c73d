/**
 * A method that throws before its first await (a refusal checked up front) is answered like any
 * refusal: the socket server must not let a synchronous throw escape as an uncaught exception
 * and leave the caller with a closed connection and no answer (hand relaunch of a parked worker
 * printed nothing, exit 1, once the parked rule was called at the top of the method).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Server } from 'node:net';
import { authorityKeyPath, ensureAuthorityKey } from '../../io/fs/authority-key.ts';
import { startSocketServer } from '../../daemon/server.ts';
import { RefusedError } from '../../contract/errors.ts';
import { homePaths } from '../../contract/home.ts';
import { call } from '../../cli/client.ts';
import { makeTempDir } from '../helpers/temp.ts';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe('a method that throws at once is still answered', () => {
  it('a synchronous refusal reaches the caller with its code and exit code, and the server goes on', async () => {
    const tmp = makeTempDir('sync-throw');
    const paths = homePaths(join(tmp.path, 'h'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(paths.home, { mode: 0o700 });
    const pong = { pid: 1, home: paths.home, socket: paths.socket, uptimeMs: 0, workers: 0, store: null };
    const server: Server = await startSocketServer(paths.socket, {
      relaunch: () => {
        throw new RefusedError('worker-parked', 'worker p1 is parked on open decision d1', { id: 'p1' });
      },
      ping: async () => pong,
    }, () => undefined, { key: ensureAuthorityKey(paths.home), keyPath: authorityKeyPath(paths.home) });
    cleanup = () => {
      server.close();
      tmp.cleanup();
    };
    await expect(call(paths, 'relaunch', { id: 'p1' }, { autostart: false })).rejects.toMatchObject({ code: 'worker-parked', exitCode: 1 });
    expect(await call(paths, 'ping', {}, { autostart: false })).toEqual(pong);
  });
});
