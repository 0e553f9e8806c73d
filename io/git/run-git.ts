/**
 * The one place io/git starts git. Always an argv array (never a shell string), never
 * rejects on a non-zero exit: every caller decides what an exit code means, because a
 * failed probe ("is there such a branch?") is an ordinary answer, not an error.
 */
import { runArgv } from '../process/run-argv.ts';
import { RefusedError } from '../../contract/errors.ts';

export interface GitResult {
  /** Exit status; null when git could not be started at all (see `spawnError`). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when the git binary could not be run (ENOENT, EACCES…): the answer is "could not tell". */
  spawnError?: string;
}

export async function runGit(cwd: string, args: readonly string[]): Promise<GitResult> {
  const r = await runArgv('git', args, {
    cwd,
    env: {
      ...process.env,
      // Never wait on a credential prompt, and keep messages in one language so errors read the same everywhere.
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
      // Probes must not take .git/index.lock from under a worker that is committing.
      GIT_OPTIONAL_LOCKS: '0',
    },
  });
  // execa's stripFinalNewline, which every caller was written against.
  const result: GitResult = { exitCode: r.exitCode, stdout: r.stdout.replace(/\r?\n$/, ''), stderr: r.stderr.replace(/\r?\n$/, '') };
  if (r.exitCode === null) result.spawnError = r.error ?? 'git could not be started';
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

/** True when `ref` names a commit. `--end-of-options` keeps a ref that starts with '-' from being read as a flag. */
export async function commitExists(cwd: string, ref: string): Promise<boolean | 'unknown'> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (r.exitCode === 0) return true;
  if (r.exitCode === 1) return false;
  return 'unknown';
}
