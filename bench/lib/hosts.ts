/**
 * The three terminal hosts, built the way the daemon builds them, each with its cleanup
 * registered. herdr runs against the double in tests/doubles/herdr (herdr itself cannot be
 * installed here), which hosts the mock agent in a real pty behind herdr's CLI and socket API.
 */
import { join } from 'node:path';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import { createHerdrHost } from '../../io/terminal/herdr/herdr-host.ts';
import type { BackendName, TerminalHost } from '../../io/terminal/types.ts';
import { makeHerdrDouble, type HerdrDouble } from '../../tests/doubles/herdr/fixture.ts';
import { onCleanup } from './cleanup.ts';
import { makeDaemonWorld, type DaemonWorld } from './daemon.ts';
import type { BenchWorld } from './world.ts';

export const BACKENDS: BackendName[] = ['pty', 'tmux', 'herdr'];

export async function makeHost(backend: BackendName, dir: string): Promise<TerminalHost> {
  if (backend === 'tmux') {
    const host = createTmuxHost({ socketPath: join(dir, `tmux-${process.pid}.sock`) });
    onCleanup('tmux server', async () => {
      await host.dispose();
      await host.killServer();
    });
    return host;
  }
  if (backend === 'pty') {
    const host = createPtyHost();
    onCleanup('pty host', () => host.dispose());
    return host;
  }
  const double = makeHerdrDouble('bench-herdr');
  const host = createHerdrHost(double.hostOptions());
  onCleanup('herdr double', async () => {
    await host.stopServer().catch(() => {});
    await host.dispose();
    await double.cleanup();
  });
  await host.ensureServer();
  return host;
}

export function makeHerdrDoubleForBench(): HerdrDouble {
  const double = makeHerdrDouble('bench-herdr');
  onCleanup('herdr double dir', () => double.cleanup());
  return double;
}

/**
 * A daemon over `world` that can host the given backends: with herdr among them, the double's
 * server is started first (the daemon's herdr host attaches to a running one, as a user's does).
 */
export async function makeDaemonForBackends(world: BenchWorld, backends: BackendName[]): Promise<DaemonWorld> {
  const double = backends.includes('herdr') ? makeHerdrDoubleForBench() : null;
  if (double) {
    const starter = createHerdrHost(double.hostOptions());
    await starter.ensureServer();
    await starter.dispose();
  }
  return makeDaemonWorld(world, double ? { HAND_HERDR_BIN: double.bin, HAND_HERDR_SOCKET: double.socketPath } : {});
}
