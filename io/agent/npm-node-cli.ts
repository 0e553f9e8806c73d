/**
 * Finding an agent CLI that npm installs as a Node bundle (Gemini CLI, Qwen Code, its fork) and
 * telling its version, written once for both: the lookup of find-binary.ts, then the version from
 * the package.json beside the real program (no Node start: their `--version` costs seconds and
 * writes into the home it is given), else `--version` with a throwaway home and no relaunch. Each
 * agent's binary.ts gives its names and where its package.json lies; this file does the rest.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findAgentBinary } from './find-binary.ts';
import type { AgentProfile } from './profiles/types.ts';

export interface NpmNodeCliFacts {
  /** The program npm links into .bin and PATH (`gemini`); a constant, written into the far script. */
  program: string;
  /** The daemon's variable that picks another build (an absolute path: `HAND_GEMINI_BIN`). */
  chosenVar: string;
  /** Its npm package (`@google/gemini-cli`). */
  packageName: string;
  /** The version kingshand pins and installs. */
  pinned: string;
  /** The package's root from the real program's folder: `..` for `<pkg>/bundle/gemini.js`, `.` for `<pkg>/cli.js`. */
  packageRoot: '.' | '..';
  /** The variable that moves its home (`GEMINI_CLI_HOME`): `--version` is given a throwaway one. */
  homeVar: string;
  /** The variable that stops it relaunching itself with a larger heap, not needed to print a version. */
  noRelaunchVar: string;
}

/** `0.61.0` from `--version`'s output (both print the bare version), or null. */
export function parseNodeCliVersion(text: string): string | null {
  const m = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(text.trim());
  return m ? m[1]! : null;
}

export function npmNodeCli(cli: NpmNodeCliFacts) {
  const ownVersion = (packageJson: string): string | null => {
    const json = JSON.parse(packageJson) as { name?: unknown; version?: unknown };
    return json.name === cli.packageName && typeof json.version === 'string' ? parseNodeCliVersion(json.version) : null;
  };
  /** The version of the package `bin` belongs to, or null when it is not laid out so. */
  const packageVersion = (bin: string): string | null => {
    try {
      return ownVersion(readFileSync(join(dirname(realpathSync(bin)), cli.packageRoot, 'package.json'), 'utf8'));
    } catch {
      return null;
    }
  };
  /** Its package.json's text or its `--version`'s output (what the far script prints) → the version, or null. */
  const parsePackageOrVersion = (text: string): string | null => {
    try {
      return ownVersion(text);
    } catch {
      return parseNodeCliVersion(text);
    }
  };
  /**
   * On another host, the same two ways in one constant script ($1: a home of kingshand's own for
   * the fallback), built from this file's constants only, never from input.
   */
  const farScript = `p=$(command -v ${cli.program}) && p=$(readlink -f -- "$p") && cat -- "\${p%/*}/${cli.packageRoot === '..' ? '../' : ''}package.json" 2>/dev/null && exit 0; ${cli.homeVar}=$1 ${cli.noRelaunchVar}=true exec ${cli.program} --version`;
  return {
    packageName: cli.packageName,
    install: `npm install --save-exact ${cli.packageName}@${cli.pinned}`,
    binary: (env: Record<string, string | undefined> = process.env): string | null => findAgentBinary(cli.program, cli.chosenVar, env),
    packageVersion,
    parsePackageOrVersion,
    farScript,
    farVersion: {
      argv: (stateDir: string) => ['sh', '-c', farScript, 'sh', `${stateDir}/${cli.program}-version`],
      parse: parsePackageOrVersion,
    } satisfies AgentProfile['farVersion'],
    /** The version of `bin`: its package.json, else `--version` with a throwaway home; could-not-tell is null. */
    versionOf(bin: string, timeoutMs = 15_000): Promise<string | null> {
      const fromPackage = packageVersion(bin);
      if (fromPackage !== null) return Promise.resolve(fromPackage);
      const home = mkdtempSync(join(tmpdir(), `kingshand-${cli.program}-version-`));
      return new Promise((resolve) => {
        const env = { ...process.env, [cli.homeVar]: home, [cli.noRelaunchVar]: 'true' };
        execFile(bin, ['--version'], { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', env }, (_err, stdout) => {
          rmSync(home, { recursive: true, force: true });
          resolve(parseNodeCliVersion(String(stdout ?? '')));
        });
      });
    },
  };
}
