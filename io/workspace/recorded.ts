/**
 * Which Hand workspace a state directory serves. `hand init` records it in the state directory
 * (workspace.json) so the daemon reads the same `data/` that `hand index add` writes: the index
 * rule once watched `$HAND_HOME/data/index.md`, a file nobody wrote, and let through a brief
 * that ignored the indexed specs. A caller may name another workspace (--workspace, or
 * HAND_WORKSPACE for tests and scripts); read on every request, so a later init applies at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import { writePrivateFile } from '../fs/private-files.ts';
import { isWorkspace } from './layout.ts';

export const WORKSPACE_RECORD = 'workspace.json';
export const WORKSPACE_ENV = 'HAND_WORKSPACE';

export function recordWorkspace(stateDir: string, workspace: string): string {
  const path = join(stateDir, WORKSPACE_RECORD);
  writePrivateFile(path, `${JSON.stringify({ workspace: resolve(workspace) }, null, 2)}\n`);
  return path;
}

/** The recorded workspace, or null when none was recorded (a damaged record reads as none and says so nowhere else: init rewrites it). */
export function recordedWorkspace(stateDir: string): string | null {
  const path = join(stateDir, WORKSPACE_RECORD);
  if (!existsSync(path)) return null;
  try {
    const v = (JSON.parse(readFileSync(path, 'utf8')) as { workspace?: unknown }).workspace;
    return typeof v === 'string' && v !== '' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The workspace whose data/ dispatch reads: the caller's --workspace, else HAND_WORKSPACE of the
 * caller's environment, else the recorded one. A named directory that is no workspace is refused
 * (a typo must not read as "no index"); null when there is no workspace at all.
 */
export function workspaceFor(args: { named?: string; env?: Record<string, string | undefined>; stateDir: string }): string | null {
  const named = args.named || args.env?.[WORKSPACE_ENV];
  if (named) {
    const dir = resolve(named);
    if (!isWorkspace(dir)) {
      throw new UsageError('not-a-workspace', `${dir} is not a Hand workspace (no .hand/workspace.json); nothing was created. Name the directory hand init made, or make one: hand init ${dir}`, { workspace: dir });
    }
    return dir;
  }
  return recordedWorkspace(args.stateDir);
}
