/**
 * How an OpenCode worker is set up: entirely through its launch environment, so nothing of the
 * person's and nothing in the worktree is written. OpenCode (1.17.19, 1.18.33) layers its config:
 * remote, the person's global (~/.config/opencode), OPENCODE_CONFIG, the repository's
 * `opencode.json` and `.opencode/`, then OPENCODE_CONFIG_CONTENT, then OPENCODE_PERMISSION merged
 * over the rules. The worker's variables:
 *  - OPENCODE_CONFIG_CONTENT: sharing off (a repository's `share: "auto"` would upload the
 *    session), no auto-update, and the witness plugin (witness-plugin.mjs) with the `hand hook`
 *    command it runs; the person's providers, models and keys are theirs and stay as they are;
 *  - OPENCODE_PERMISSION: the posture's rules (permission.ts), over whatever the files say;
 *  - OPENCODE_DISABLE_AUTOUPDATE: no update check or self-upgrade while a fleet runs it.
 * With any of OPENCODE_CONFIG, OPENCODE_CONFIG_DIR or OPENCODE_CONFIG_CONTENT set, OpenCode also
 * leaves the person's global config directory alone: without them it writes an opencode.jsonc
 * there when there is none.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { KINGSHAND_ROOT } from '../../root.ts';
import { opencodePermission, type OpencodePlaces } from './permission.ts';

/** The plugin file every OpenCode worker's witness loads (static: its one parameter is the command, given as an option). */
export const WITNESS_PLUGIN = join(KINGSHAND_ROOT, 'io', 'agent', 'opencode', 'witness-plugin.mjs');

/** argv that runs `hand` from this installation against `home` (the worker's plugin appends `hook <event>`). */
export function handArgv(home: string, opts: { node?: string; handBin?: string } = {}): string[] {
  return [opts.node ?? process.execPath, opts.handBin ?? join(KINGSHAND_ROOT, 'bin', 'hand.js'), '--home', home];
}

export interface OpencodeLaunch extends OpencodePlaces {
  posture: PermissionPosture;
  /** kingshand's state directory when the worker's witness is wanted (absent: no plugin). */
  witnessHome?: string;
}

/** The config OPENCODE_CONFIG_CONTENT carries for one worker. */
export function workerConfig(witnessHome?: string): Record<string, unknown> {
  return {
    share: 'disabled',
    autoupdate: false,
    ...(witnessHome ? { plugin: [[pathToFileURL(WITNESS_PLUGIN).href, { hand: handArgv(witnessHome) }]] } : {}),
  };
}

/** The variables one worker's launch adds (without its places, its posture's actions name no path). */
export function opencodeLaunchEnv(o: OpencodeLaunch): Record<string, string> {
  const { posture, witnessHome, ...places } = o;
  return {
    OPENCODE_CONFIG_CONTENT: JSON.stringify(workerConfig(witnessHome)),
    OPENCODE_PERMISSION: JSON.stringify(opencodePermission(posture, places)),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
  };
}
