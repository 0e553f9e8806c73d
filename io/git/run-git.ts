/**
 * The one place io/git starts git. Always an argv array (never a shell string), never
 * rejects on a non-zero exit: every caller decides what an exit code means, because a
 * failed probe ("is there such a branch?") is an ordinary answer, not an error.
 */
import { isAbsolute, join } from 'node:path';
import { runArgv } from '../process/run-argv.ts';
import { RefusedError } from '../../contract/errors.ts';
import { sshArgv } from '../ssh/ssh-command.ts';
import { farTarget } from './git-place.ts';

export interface GitResult {
  /** Exit status; null when git could not be started at all (see `spawnError`). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when the git binary could not be run (ENOENT, EACCES…): the answer is "could not tell". */
  spawnError?: string;
}

/**
 * A path git printed (`rev-parse --git-common-dir`, `--git-path …`): as printed when absolute, else
 * relative to `cwd`, the directory git ran in.
 */
export function gitPrintedPath(cwd: string, printed: string): string {
  return isAbsolute(printed) ? printed : join(cwd, printed);
}

const GIT_ENV = {
  // Never wait on a credential prompt, and keep messages in one language so errors read the same everywhere.
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  // Probes must not take .git/index.lock from under a worker that is committing.
  GIT_OPTIONAL_LOCKS: '0',
};

/** PATH on a far host: git is looked for where a non-interactive ssh command finds it (host check asks the same). */
const FAR_PATH = 'PATH=/usr/local/bin:/usr/bin:/bin';

export async function runGit(cwd: string, args: readonly string[]): Promise<GitResult> {
  const far = farTarget();
  if (far) return runGitFar(far, cwd, args);
  const r = await runArgv('git', args, { cwd, env: { ...process.env, ...GIT_ENV } });
  // execa's stripFinalNewline, which every caller was written against.
  const result: GitResult = { exitCode: r.exitCode, stdout: r.stdout.replace(/\r?\n$/, ''), stderr: r.stderr.replace(/\r?\n$/, '') };
  if (r.exitCode === null) result.spawnError = r.error ?? 'git could not be started';
  return result;
}

/**
 * $@ = env's assignments, git and its argv: nothing inherited but the far account's HOME, where
 * git finds that account's config and credential helpers — a push from a far host (direct-PR)
 * goes with the far account's credentials, as git here goes with the person's.
 */
const WITH_FAR_HOME = 'exec env -i HOME="$HOME" "$@"';

/**
 * The same call on the far host (git-place.ts): `env -i HOME=<theirs> … git -C <cwd> …` as argv,
 * quoted per element by remoteCommand. ssh's own failure (exit 255) is "git could not be
 * started" — a could-not-tell for every caller, never an answer git gave.
 */
async function runGitFar(far: NonNullable<ReturnType<typeof farTarget>>, cwd: string, args: readonly string[]): Promise<GitResult> {
  const env = Object.entries(GIT_ENV).map(([k, v]) => `${k}=${v}`);
  const { file, args: sshArgs } = sshArgv(far, ['sh', '-c', WITH_FAR_HOME, 'sh', FAR_PATH, ...env, 'git', '-C', cwd, ...args]);
  // Only PATH: ssh sends none of our environment, and the ssh process holds none of it either.
  const r = await runArgv(file, sshArgs, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 60_000 });
  const exitCode = r.exitCode !== null && r.exitCode !== 255 ? r.exitCode : null;
  const result: GitResult = { exitCode, stdout: r.stdout.replace(/\r?\n$/, ''), stderr: r.stderr.replace(/\r?\n$/, '') };
  if (exitCode === null) result.spawnError = `ssh to ${far.user}@${far.address}:${far.port} failed: ${(r.stderr || r.error || '').trim() || 'no message'}`;
  return result;
}

/** Runs git and returns stdout; a non-zero exit becomes a RefusedError that quotes git's own words. */
export async function gitOrRefuse(cwd: string, args: readonly string[], code: string, what: string): Promise<string> {
  const r = await runGit(cwd, args);
  if (r.exitCode === 0) return r.stdout;
  const said = (r.stderr || r.stdout || r.spawnError || '').trim();
  throw new RefusedError(code, `${what} failed in ${cwd}: git ${args.join(' ')} said: ${said || `exit ${r.exitCode}`}`, {
    cwd,
    args: [...args],
    exitCode: r.exitCode,
    stderr: r.stderr,
  });
}

/**
 * The commit `ref` names: its sha, null when it names none, 'unknown' when git could not tell.
 * `--end-of-options` keeps a ref that starts with '-' from being read as a flag.
 */
export async function commitOf(cwd: string, ref: string): Promise<string | null | 'unknown'> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (r.exitCode === 0 && r.stdout.trim()) return r.stdout.trim();
  if (r.exitCode === 1) return null;
  return 'unknown';
}

/** True when `ref` names a commit. */
export async function commitExists(cwd: string, ref: string): Promise<boolean | 'unknown'> {
  const sha = await commitOf(cwd, ref);
  return sha === 'unknown' ? 'unknown' : sha !== null;
}

/** What a ref line of `cat-file --batch-check` may not hold (a ref name never does). */
const UNBATCHABLE = /[\s\x00-\x1f\x7f]/;

/**
 * Which of `refs` name a commit, asked of one git process (`cat-file --batch-check`, which
 * resolves a name as `rev-parse` does), or null when it cannot be asked that way: a far host, a
 * name with a blank or a control character, or a git that did not answer line for line. The
 * caller then asks `commitExists` per ref. Dispatch tries up to seven names for a base; each was
 * a git process, and each process a fork of the daemon.
 */
export async function commitsExist(cwd: string, refs: readonly string[]): Promise<Map<string, boolean> | null> {
  if (refs.length === 0) return new Map();
  if (farTarget() || refs.some((ref) => ref === '' || UNBATCHABLE.test(ref))) return null;
  const r = await runArgv('git', ['cat-file', '--batch-check'], { cwd, env: { ...process.env, ...GIT_ENV }, input: refs.map((ref) => `${ref}^{commit}\n`).join('') });
  if (r.exitCode !== 0) return null;
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  if (lines.length !== refs.length) return null;
  const found = new Map<string, boolean>();
  for (const [i, ref] of refs.entries()) {
    const line = lines[i]!;
    if (line === `${ref}^{commit} missing`) found.set(ref, false);
    else if (/^[0-9a-f]{40,64} commit \d+$/.test(line)) found.set(ref, true);
    else return null; // ambiguous, or a shape this git version prints differently: ask one by one
  }
  return found;
}
