/**
 * A PATH directory holding exactly node, git, tmux, sh and bwrap (and the listed extras, such as
 * the gh or no-mistakes doubles): nothing else the machine has, so a daemon started with it cannot
 * find a real gh or no-mistakes. bwrap is the machine's, as tmux is: a daemon whose PATH lacks it
 * cannot build kingshand's sandbox and refuses posture off (`without: ['bwrap']` for that test).
 * Used by the tests of what a posture needs on PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The gh double (tests/doubles/gh): answers as a logged-in gh would, on 127.0.0.1 only. */
export const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');

function which(cmd: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Makes `<root>/<name>` with the links; `extras` maps a command name to the file it runs. */
export function binDir(root: string, name: string, extras: Record<string, string> = {}, opts: { without?: string[] } = {}): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const cmd of ['git', 'tmux', 'sh', 'bwrap'].filter((c) => !opts.without?.includes(c))) {
    const p = which(cmd);
    if (p) symlinkSync(p, join(dir, cmd));
  }
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const [cmd, target] of Object.entries(extras)) symlinkSync(target, join(dir, cmd));
  return dir;
}

/**
 * A caller's environment whose PATH is only `binDir(root, name, extras)` and whose gh token is
 * `ghToken` (GITHUB_TOKEN empty, so the machine's own never speaks).
 */
export function callerEnv(root: string, name: string, extras: Record<string, string> = {}, ghToken = ''): Record<string, string> {
  return { PATH: binDir(root, name, extras), GH_TOKEN: ghToken, GITHUB_TOKEN: '' };
}
