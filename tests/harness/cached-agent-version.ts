/**
 * Agent CLI builds other than the pinned ones, kept in ~/.cache/kingshand/<agent>/<version>
 * (outside the repository) and installed there with npm on first use: the one installer behind
 * claudeBinaryFor, codexBinaryFor and geminiBinaryFor.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache directory of one agent's `version`. */
export function agentCacheDir(agent: string, version: string): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kingshand', agent, version);
}

/**
 * The environment npm installs into the cache with: the suite's, with the machine's
 * NODE_EXTRA_CA_CERTS back when `npm test` moved it aside (scripts/suite-env.mjs) — the registry
 * is the one place the suite reaches past 127.0.0.1, and a proxy's CA may be needed to reach it.
 */
export function registryEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const ca = env.KH_MACHINE_NODE_EXTRA_CA_CERTS;
  return ca === undefined || env.NODE_EXTRA_CA_CERTS !== undefined ? env : { ...env, NODE_EXTRA_CA_CERTS: ca };
}

/** An agent CLI's npm package, as the cache installs it. */
export interface AgentPackage {
  /** The cache's folder name (claude, codex, gemini). */
  agent: string;
  /** The npm package (`@openai/codex`). */
  pkg: string;
  /** Its executable in node_modules/.bin. */
  bin: string;
  /** More `npm install` flags (`--ignore-scripts`). */
  npmFlags?: string[];
  /** How long an install may take when the caller names no bound. */
  installTimeoutMs: number;
}

/**
 * The executable of `version`, installing it into the cache when missing (npm, so it needs the
 * registry). Throws with the reason when the installed package is another version.
 */
export function cachedAgentBinary(p: AgentPackage, version: string, opts: { log?: (line: string) => void; timeoutMs?: number } = {}): string {
  const dir = agentCacheDir(p.agent, version);
  const bin = join(dir, 'node_modules', '.bin', p.bin);
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    opts.log?.(`installing ${p.pkg}@${version} into ${dir}`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', ...(p.npmFlags ?? []), `${p.pkg}@${version}`], {
      stdio: opts.log ? 'inherit' : 'pipe',
      env: registryEnv(),
      timeout: opts.timeoutMs ?? p.installTimeoutMs,
    });
  }
  // The installed package says its version (`claude --version` of some versions lingers, and on a
  // loaded machine a JS build can take longer to start than any sensible timeout).
  const pkg = join(dir, 'node_modules', ...p.pkg.split('/'), 'package.json');
  const installed = (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version;
  if (installed !== version) throw new Error(`${pkg} says ${String(installed)}, expected ${version}`);
  return bin;
}
