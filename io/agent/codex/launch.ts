/**
 * How a Codex CLI worker starts: the binary (HAND_CODEX_BIN, the pinned one in node_modules,
 * then PATH), its version, and its argv. Everything per worker goes on the command line as
 * `-c key=value` overrides, so nothing in the person's config.toml changes for their own
 * sessions; only folder trust has to be written there (trust-seed.ts).
 */
import { execFile } from 'node:child_process';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { findAgentBinary } from '../find-binary.ts';
import { KINGSHAND_ROOT } from '../../root.ts';
import { codexPostureArgs } from './postures.ts';

/** The Codex binary a dispatch would start (chosen, pinned, then PATH), or null. */
export function codexBinary(env: Record<string, string | undefined> = process.env, root = KINGSHAND_ROOT): string | null {
  return findAgentBinary('codex', 'HAND_CODEX_BIN', env, root);
}

/** `codex-cli 0.169.0` → `0.169.0`; anything else → null. */
export function parseCodexVersion(text: string): string | null {
  const m = /(?:^|\s)codex-cli\s+(\d+\.\d+\.\d+(?:-[\w.]+)?)\b/.exec(text);
  return m ? m[1]! : null;
}

export function codexVersionOf(bin: string, timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' }, (_err, stdout) => {
      resolve(parseCodexVersion(String(stdout ?? '')));
    });
  });
}

export interface CodexLaunchOptions {
  posture: PermissionPosture;
  /** The release that will run (`0.169.0`); unknown: the current releases' arguments. */
  version?: string | null;
  /** argv of the command Codex runs after each turn with its JSON event (the second witness). */
  notify?: readonly string[];
  /** Directories outside the worktree the sandbox lets commands write (`--add-dir`). */
  writableRoots?: readonly string[];
}

/** A TOML array of strings for a `-c` override (JSON string syntax is valid TOML basic strings). */
function tomlArray(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;
}

/**
 * The arguments after the binary. Why each one:
 *  - `--no-daemon`: otherwise the TUI starts a shared app-server daemon and an updater loop
 *    (`codex app-server --managed-daemon`, `app-server daemon pid-update-loop`) that outlive the
 *    worker — seen under tmux with 0.169.0;
 *  - `check_for_update_on_startup=false`: no update check or upgrade screen at start;
 *  - `analytics.enabled=false`: no telemetry from a supervised worker;
 *  - `notice.hide_full_access_warning=true`: the off posture's full-access notice is not a
 *    question anyone should have to answer at start.
 */
/** The first release that knows `--no-daemon`: 0.155.0 and older stop at start with "unexpected argument" (checked by hand on 0.140–0.158). */
export const NO_DAEMON_SINCE = [0, 158, 0] as const;

function knowsNoDaemon(version: string | null | undefined): boolean {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return true;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) if (v[i] !== NO_DAEMON_SINCE[i]) return v[i]! > NO_DAEMON_SINCE[i]!;
  return true;
}

export function codexLaunchArgs(opts: CodexLaunchOptions): string[] {
  const args = [
    ...(knowsNoDaemon(opts.version) ? ['--no-daemon'] : []),
    '-c', 'check_for_update_on_startup=false',
    '-c', 'analytics.enabled=false',
    '-c', 'notice.hide_full_access_warning=true',
    ...codexPostureArgs(opts.posture),
  ];
  // Extra writable roots exist only in workspace-write (edits): under read-only (ask) 0.169.0
  // prints "Error adding directories: Ignoring --add-dir …" at start, and off has no sandbox.
  if (opts.posture === 'edits') for (const dir of opts.writableRoots ?? []) args.push('--add-dir', dir);
  if (opts.notify !== undefined && opts.notify.length > 0) args.push('-c', `notify=${tomlArray(opts.notify)}`);
  return args;
}
