/**
 * Runs one program with an argv array, never through a shell (node's execFile with shell off):
 * the daemon's hot paths (tmux, git) use this instead of execa, whose ~120 module files cost the
 * daemon's start more than a hundred milliseconds before it could restore a single worker
 * (issue 26). Rarely used paths (gh, the review gate, herdr, the browser) keep execa, loaded
 * when first needed.
 */
import { execFile } from 'node:child_process';
import { commandRunnerFor, type RawRun } from './runner.ts';

export interface RunOptions {
  cwd?: string;
  /** The whole environment of the child (nothing of ours is added). */
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed; without it stdin is closed at once. */
  input?: string | Uint8Array;
  timeoutMs?: number;
  /** Largest stdout or stderr kept (bytes); default 64 MB. */
  maxBuffer?: number;
}

export interface RunResult {
  /** Exit status; null when the program could not be started or was killed (see `error`). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why there is no exit status: ENOENT, EACCES, a timeout, a signal. */
  error?: string;
}

export function runArgv(file: string, args: readonly string[], o: RunOptions): Promise<RunResult> {
  const timeoutMs = o.timeoutMs ?? 0;
  const maxBuffer = o.maxBuffer ?? 64 * 1024 * 1024;
  // The daemon's git commands are started by its runner process (runner.ts says why and why git only).
  const runner = commandRunnerFor(file);
  if (runner) return runner.run({ file, args, cwd: o.cwd, env: o.env, input: o.input, timeoutMs, maxBuffer }).then((raw) => resultOf(raw, timeoutMs));
  return new Promise((resolve) => {
    const child = execFile(file, [...args], { cwd: o.cwd, env: o.env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer, shell: false, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean; signal?: string | null }) | null;
      resolve(resultOf({ err: e ? { code: e.code, killed: e.killed, signal: e.signal, message: e.message } : null, stdout: stdout ?? '', stderr: stderr ?? '' }, timeoutMs));
    });
    // A child that exits before reading its stdin must not crash us with EPIPE.
    child.stdin?.on('error', () => {});
    if (o.input !== undefined) child.stdin?.end(o.input);
    else child.stdin?.end();
  });
}

/** What execFile said, as a result: the same for a command started here or by the runner. */
function resultOf({ err, stdout, stderr }: RawRun, timeoutMs: number): RunResult {
  if (!err) return { exitCode: 0, stdout, stderr };
  if (typeof err.code === 'number') return { exitCode: err.code, stdout, stderr };
  const why = err.killed ? `killed (${err.signal ?? 'timeout'}) after ${timeoutMs} ms` : typeof err.code === 'string' ? err.code : (err.message ?? 'failed');
  return { exitCode: null, stdout, stderr, error: why };
}
