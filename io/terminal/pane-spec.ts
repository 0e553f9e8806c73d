/**
 * PaneSpec checks and defaults shared by every host, so that a bad spec fails the same way on
 * tmux, pty and herdr — before anything is created.
 */
import { existsSync, statSync } from 'node:fs';
import { UsageError } from '../../contract/errors.ts';
import type { PaneSpec } from './types.ts';

export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;
/** Below this the screen classifiers go blind (control-plane §2.9): refuse rather than create. */
export const MIN_COLS = 40;

export interface CheckedPaneSpec extends PaneSpec {
  cols: number;
  rows: number;
}

/**
 * `localCwd: false` for a pane on another machine: its directory is a path there, which this
 * machine cannot stat (tmux on the far side refuses a missing one).
 */
export function checkPaneSpec(spec: PaneSpec, options: { localCwd?: boolean } = {}): CheckedPaneSpec {
  if (!spec.name || /[\x00-\x1f\x7f]/.test(spec.name)) {
    throw new UsageError('bad-pane-spec', `pane name ${JSON.stringify(spec.name)} is empty or holds control characters`);
  }
  if (spec.argv.length === 0 || !spec.argv[0]) throw new UsageError('bad-pane-spec', 'pane argv is empty');
  // env(1) would read a program name with "=" as one more variable.
  if (spec.argv[0].includes('=')) throw new UsageError('bad-pane-spec', `program name ${JSON.stringify(spec.argv[0])} contains "="`);
  for (const arg of spec.argv) {
    if (arg.includes('\0')) throw new UsageError('bad-pane-spec', 'an argv element contains a NUL byte');
  }
  for (const [key, value] of Object.entries(spec.env)) {
    if (!key || key.includes('=') || key.includes('\0') || String(value).includes('\0')) {
      throw new UsageError('bad-pane-spec', `environment entry ${JSON.stringify(key)} is not a valid variable`);
    }
  }
  const cols = spec.cols ?? DEFAULT_COLS;
  const rows = spec.rows ?? DEFAULT_ROWS;
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < MIN_COLS || rows < 5 || cols > 1000 || rows > 500) {
    throw new UsageError('bad-pane-spec', `pane size ${cols}x${rows} is outside ${MIN_COLS}..1000 x 5..500`);
  }
  if (options.localCwd === false) {
    if (!spec.cwd.startsWith('/')) throw new UsageError('bad-pane-spec', `working directory ${spec.cwd} on the far side must be an absolute path`);
    return { ...spec, cols, rows };
  }
  let isDir = false;
  try {
    isDir = statSync(spec.cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError('bad-pane-spec', `working directory ${spec.cwd} does not exist`);
  return { ...spec, cols, rows };
}

/** env(1) for `exactEnvArgv`; absolute so that the server's own PATH does not matter. */
export function findEnvBin(): string {
  for (const candidate of ['/usr/bin/env', '/bin/env']) if (existsSync(candidate)) return candidate;
  return 'env';
}

/**
 * argv that runs `argv` with exactly `env` and nothing else: `env -i -- K=V … argv`. A tmux
 * server hands new panes its own (possibly days-old) environment plus TMUX/TMUX_PANE, and
 * node-pty adds PWD and TERM; `env -i` clears all of that, so every host starts a worker alike.
 */
export function exactEnvArgv(envBin: string, env: Record<string, string>, argv: readonly string[]): string[] {
  return [envBin, '-i', '--', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv];
}
