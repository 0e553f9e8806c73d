/**
 * The agent's own configuration inside kingshand's sandbox: a directory of the worker's own
 * (`<state>/agents/<id>/<agent>`), which its agent writes (its session files, its trust, its
 * transcripts), made from the person's on the first launch. The person's directory itself is
 * hidden from the worker (secret-places.ts): their settings, instructions and commands come in
 * read-only (a worker cannot plant a hook that the person's own sessions would run), their login
 * comes in writable (an agent refreshes its token in place), and nothing else of theirs — not
 * their conversations — is there.
 *
 * Why a directory of its own rather than the person's: an agent writes its config beside it by a
 * temporary file and a rename (Claude Code 2.1.332 renames `.claude.json.tmp.<pid>.<n>` over
 * `~/.claude.json` and locks it in HOME), so the person's HOME would have to be writable — and
 * with it every file the person's shell, git and editor run from.
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** What an agent profile says about running from a directory of the worker's own (io/agent/profiles/types.ts). */
export interface AgentSandboxHome {
  /** The variable that points the agent at its config directory (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). */
  readonly env: string;
  /** The person's directory the worker's is made from, for this launch environment, or null when there is none. */
  personsDir(env: Env): string | null;
  /** Entries of the person's directory bound read-only into the worker's: read, never changed. */
  readonly readOnly: readonly string[];
  /** Entries bound writable: a login the agent refreshes in place. */
  readonly shared: readonly string[];
  /**
   * More variables pointed into the worker's directory (name → a subdirectory of it), for an agent
   * whose homes are several (OpenCode's XDG state and cache beside its data home). Absent: none.
   */
  readonly alsoEnv?: Readonly<Record<string, string>>;
  /**
   * Run before each launch (the directory exists, 0700): what the worker's directory takes from
   * the person's — copies, never links; the profile decides what is made once and what is
   * refreshed.
   */
  prepare?(personsDir: string | null, workersDir: string, env: Env): void;
}

/** An entry of the person's that exists and is a real file or directory (a link of theirs is not followed into a worker). */
export function personsEntry(personsDir: string | null, rel: string): string | null {
  if (!personsDir) return null;
  const path = join(personsDir, rel);
  try {
    const st = lstatSync(path);
    return st.isFile() || st.isDirectory() ? path : null;
  } catch {
    return null;
  }
}

/**
 * Makes the worker's directory (0700) and what the agent profile copies into it. Mount points
 * for the bound entries are made by bubblewrap inside it.
 */
export function prepareAgentHome(home: AgentSandboxHome, personsDir: string | null, workersDir: string, env: Env): void {
  mkdirSync(workersDir, { recursive: true, mode: 0o700 });
  home.prepare?.(personsDir, workersDir, env);
}

export { claimRegularFile } from '../fs/worker-places.ts';

/**
 * Copies one file of the person's into the worker's directory when it is a regular file (a link
 * of theirs is not followed): written whole under a fresh name and renamed over the target, so a
 * link the worker planted at the target is replaced, never written through.
 */
export function copyPersonsFile(from: string | null, to: string): boolean {
  if (!from) return false;
  let text: Buffer;
  try {
    if (!lstatSync(from).isFile()) return false;
    text = readFileSync(from);
  } catch {
    return false;
  }
  writePrivateAtomically(to, text);
  return true;
}

/** A 0600 file written under a fresh name (O_EXCL) and renamed over `to`. */
export function writePrivateAtomically(to: string, data: string | Uint8Array): void {
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(to), `.kh-${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(tmp, to);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
