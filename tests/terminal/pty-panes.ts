/**
 * A file's pty host and the temp directories of its panes, both gone after each test: a pane is
 * asked for with its program's argv and lives in a fresh directory.
 */
import { afterEach } from 'vitest';
import { createPtyHost, type PtyHost } from '../../io/terminal/pty/pty-host.ts';
import type { PaneSpec } from '../../io/terminal/types.ts';
import { makeTempDir } from '../helpers/temp.ts';

export function usePtyPanes(label: string, hostOptions: Parameters<typeof createPtyHost>[0] = {}) {
  let host: PtyHost | undefined;
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    for (const c of dirs.splice(0)) c();
  });
  return {
    host(): PtyHost {
      host ??= createPtyHost(hostOptions);
      return host;
    },
    /** A pane running `argv` in a fresh directory (given to `argvIn` to build the argv from). */
    async pane(argvIn: (dir: string) => string[], extra: Partial<PaneSpec> = {}) {
      const dir = makeTempDir(label);
      dirs.push(dir.cleanup);
      const pane = await this.host().createPane({ name: label, cwd: dir.path, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, argv: argvIn(dir.path), ...extra });
      return { paneId: pane.paneId, dir: dir.path };
    },
  };
}
