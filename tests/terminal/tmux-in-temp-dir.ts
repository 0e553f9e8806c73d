/**
 * A private tmux server in a fresh temp dir, both undone after the test (server first): the
 * opening of every tmux test, written once.
 */
import { join } from 'node:path';
import { createTmuxHost, type TmuxHost, type TmuxHostOptions } from '../../io/terminal/tmux/tmux-host.ts';
import type { Cleanup } from '../helpers/cleanups.ts';
import { makeTempDir } from '../helpers/temp.ts';

export function tmuxInTempDir(
  defer: (c: Cleanup) => void,
  label: string,
  options: Omit<TmuxHostOptions, 'socketPath'> = {},
): { dir: string; host: TmuxHost } {
  const d = makeTempDir(label);
  defer(d.cleanup);
  const host = createTmuxHost({ socketPath: join(d.path, 'tmux.sock'), ...options });
  defer(() => host.killServer().catch(() => {}));
  return { dir: d.path, host };
}
