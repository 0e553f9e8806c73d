/**
 * Finding OpenCode and its version. The npm package `opencode-ai` is a launcher: its
 * `bin/opencode.exe` is a shell stub until its postinstall links the native binary of the
 * platform package (`opencode-linux-x64`, `-baseline`, `-musl`…, 185 MB) over it. So the lookup
 * is HAND_OPENCODE_BIN (absolute, in the daemon's environment: another build), the pinned
 * node_modules copy — the linked launcher when its postinstall ran, else the platform package's
 * own binary, which npm installs either way — then PATH.
 *
 * The version is read from the package.json beside the binary: `opencode --version` takes seconds
 * (a 185 MB binary starting) and makes its directories in the HOME it is given (1.18.33 creates
 * ~/.config, ~/.local/share, ~/.local/state and ~/.cache entries even for --version).
 */
import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';

export const OPENCODE_PACKAGE = 'opencode-ai';
export const OPENCODE_PINNED = '1.18.33';
export const FIX_OPENCODE = `npm install --save-exact ${OPENCODE_PACKAGE}@${OPENCODE_PINNED}`;

type Env = Record<string, string | undefined>;

/** The platform packages `opencode-ai` picks from on this machine, in its own postinstall's order. */
export function platformPackages(platform: string = process.platform, arch: string = process.arch): string[] {
  const os = platform === 'win32' ? 'windows' : platform;
  const base = `opencode-${os}-${arch}`;
  if (os === 'linux' && arch === 'x64') return [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`];
  if (os === 'linux') return [base, `${base}-musl`];
  if (arch === 'x64') return [base, `${base}-baseline`];
  return [base];
}

/** The launcher before its postinstall ran: a shell script that only prints how to run it. */
function isUnlinkedLauncher(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('latin1').startsWith('echo ');
  } catch {
    return true;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function opencodeBinary(env: Env = process.env, root = KINGSHAND_ROOT): string | null {
  const chosen = env.HAND_OPENCODE_BIN;
  if (chosen && isAbsolute(chosen) && existsSync(chosen)) return chosen;
  const launcher = join(root, 'node_modules', '.bin', 'opencode');
  if (existsSync(launcher) && !isUnlinkedLauncher(launcher)) return launcher;
  for (const pkg of platformPackages()) {
    const bin = join(root, 'node_modules', pkg, 'bin', 'opencode');
    if (existsSync(bin)) return bin;
  }
  for (const dir of (env.PATH ?? '').split(':')) {
    const bin = dir ? join(dir, 'opencode') : '';
    if (bin && existsSync(bin) && !isUnlinkedLauncher(bin)) return bin;
  }
  return null;
}

/** `1.18.33` from `opencode --version` (it prints the bare version), or null. */
export function parseOpencodeVersion(text: string): string | null {
  const m = /^\s*v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(text);
  return m ? m[1]! : null;
}

const OURS = /^opencode-(?:ai|(?:linux|darwin|windows)-[\w-]+)$/;

/** A package.json's text of `opencode-ai` or a platform package, or `opencode --version`'s output → the version, or null. */
export function parseOpencodePackageOrVersion(text: string): string | null {
  try {
    const json = JSON.parse(text) as { name?: unknown; version?: unknown };
    return typeof json.name === 'string' && OURS.test(json.name) && typeof json.version === 'string' ? parseOpencodeVersion(json.version) : null;
  } catch {
    return parseOpencodeVersion(text);
  }
}

/** The version of the package `bin` belongs to (`<pkg>/bin/opencode[.exe]` → `<pkg>/package.json`), or null. */
export function opencodePackageVersion(bin: string): string | null {
  try {
    const pkg = join(dirname(realpathSync(bin)), '..', 'package.json');
    return parseOpencodePackageOrVersion(readFileSync(pkg, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The places OpenCode makes its directories in, all in one throwaway directory: HOME and the
 * four XDG homes (it follows XDG_* before HOME).
 */
export function throwawayHomeEnv(dir: string): Record<string, string> {
  return { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), XDG_DATA_HOME: join(dir, '.local', 'share'), XDG_STATE_HOME: join(dir, '.local', 'state'), XDG_CACHE_HOME: join(dir, '.cache') };
}

/** The version of `bin`: its package.json, else `opencode --version` in a throwaway home; could-not-tell is null. */
export function opencodeVersionOf(bin: string, timeoutMs = 30_000): Promise<string | null> {
  const fromPackage = opencodePackageVersion(bin);
  if (fromPackage !== null) return Promise.resolve(fromPackage);
  const home = mkdtempSync(join(tmpdir(), 'kingshand-opencode-version-'));
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...throwawayHomeEnv(home), OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1' };
    execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', env }, (_err, stdout) => {
      rmSync(home, { recursive: true, force: true });
      resolve(parseOpencodeVersion(String(stdout ?? '')));
    });
  });
}

/**
 * On another host, the same two ways in one constant script ($1: a directory of kingshand's own for
 * the fallback): the package.json beside the real program (an npm install links `opencode` to the
 * launcher or its native binary, `<pkg>/bin/…`), else `opencode --version` with every home there.
 */
export const FAR_OPENCODE_VERSION = 'p=$(command -v opencode) && p=$(readlink -f -- "$p") && cat -- "${p%/*}/../package.json" 2>/dev/null && exit 0; HOME=$1 XDG_CONFIG_HOME=$1/.config XDG_DATA_HOME=$1/.local/share XDG_STATE_HOME=$1/.local/state XDG_CACHE_HOME=$1/.cache OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 exec opencode --version';
