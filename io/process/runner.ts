/**
 * The daemon's git commands (run-argv.ts) started by a small Node process of its own
 * (runner-child.mjs) instead of by the daemon itself.
 *
 * Why: Node starts a child by forking itself and waiting until the copy has exec'd, and a fork
 * copies the parent's page tables; the copy's exec then tears them down. For the daemon, a process
 * of hundreds of megabytes hosting hundreds of workers, that held its one thread ~15 ms a command
 * (bench/profile-resume.ts at 150 workers: 146 git starts, 2.1 s of `ChildProcess.spawn`), time in
 * which no screen was read and no request answered. The runner is small: its forks are cheap, and
 * they block only it. A dozen milliseconds of the daemon's thread become a line written to a pipe.
 *
 * Git only: git is the daemon's bursts (a status's overlap reads, two a worker; a landing's checks).
 * tmux's commands (its control client carries most of them) and ssh stay in the daemon, so a
 * tmux command about a pane's exit never queues behind hundreds of git starts in the runner's one
 * thread, and what tells a worker's end keeps its own path.
 *
 * Only where it pays: a process turns it on (`useCommandRunner`) when it is long-lived and runs
 * many commands (the daemon); a `hand` command runs its few itself. A runner that cannot start, or
 * that ended, is replaced by the next command; a command it had taken when it ended is a failure
 * (`error` says so), never run a second time — it may have run. `KH_COMMAND_RUNNER=0` turns it off.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { KINGSHAND_ROOT } from '../root.ts';

const RUNNER = join(KINGSHAND_ROOT, 'io', 'process', 'runner-child.mjs');

/** What execFile said about a command: its error's fields (null: exit 0) and its output. */
export interface RawRun {
  err: { code?: number | string; killed?: boolean; signal?: string | null; message?: string } | null;
  stdout: string;
  stderr: string;
}

export interface RunnerRequest {
  file: string;
  args: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  input?: string | Uint8Array;
  timeoutMs: number;
  maxBuffer: number;
}

let wanted = false;
let runner: CommandRunner | null = null;
/** What the daemon sends there: git (see above). */
const GIT_ONLY = (file: string): boolean => file === 'git';
/** Which programs go through it. */
let through = GIT_ONLY;

/**
 * From now on this process's git commands go through a runner, or (`on` false) none. `which`
 * chooses other programs instead (a test sends every kind of ending through it).
 */
export function useCommandRunner(on = true, which: (file: string) => boolean = GIT_ONLY): void {
  // Not started here: its Node start at the daemon's own competed with the restore (all 150 workers
  // live after a restart 368–378 ms without a runner, 448–452 with one started here, 333–439 with
  // one started by the first git command).
  wanted = on && process.env.KH_COMMAND_RUNNER !== '0';
  through = which;
}

/** The runner to send `file` to, started when needed; null when this process runs it itself. */
export function commandRunnerFor(file: string): CommandRunner | null {
  return through(file) ? commandRunner() : null;
}

/** The runner, started when needed; null when this process runs its own commands. */
export function commandRunner(): CommandRunner | null {
  if (!wanted) return null;
  if (runner?.alive) return runner;
  runner = CommandRunner.start();
  return runner;
}

class CommandRunner {
  private readonly pending = new Map<number, (r: RawRun) => void>();
  private seq = 0;
  private buffered = '';
  alive = true;

  /** The runner process (a test ends it to show what a runner that died mid-command does). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(chunk));
    child.on('exit', () => this.ended('the command runner ended before the command did'));
    child.on('error', () => this.ended('the command runner could not be started'));
    child.stdin.on('error', () => this.ended('the command runner stopped reading'));
    child.unref();
    this.idle();
  }

  static start(): CommandRunner | null {
    try {
      return new CommandRunner(spawn(process.execPath, [RUNNER], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }));
    } catch {
      return null;
    }
  }

  run(req: RunnerRequest): Promise<RawRun> {
    const id = ++this.seq;
    const binary = req.input instanceof Uint8Array;
    const input = req.input === undefined ? undefined : binary ? Buffer.from(req.input as Uint8Array).toString('base64') : req.input;
    const line = JSON.stringify({ id, file: req.file, args: req.args, cwd: req.cwd, env: req.env, input, inputBase64: binary || undefined, timeoutMs: req.timeoutMs, maxBuffer: req.maxBuffer });
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.busy();
      this.child.stdin.write(`${line}\n`);
    });
  }

  private onData(chunk: string): void {
    this.buffered += chunk;
    for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      let msg: RawRun & { id: number };
      try {
        msg = JSON.parse(line) as RawRun & { id: number };
      } catch {
        continue;
      }
      const done = this.pending.get(msg.id);
      if (!done) continue;
      this.pending.delete(msg.id);
      done({ err: msg.err, stdout: msg.stdout, stderr: msg.stderr });
    }
    if (this.pending.size === 0) this.idle();
  }

  private ended(why: string): void {
    if (!this.alive) return;
    this.alive = false;
    for (const done of this.pending.values()) done({ err: { message: why }, stdout: '', stderr: '' });
    this.pending.clear();
    this.child.stdin.destroy();
    this.child.stdout.destroy();
  }

  // Waiting on a command keeps this process up; an idle runner never does.
  private busy(): void {
    (this.child.stdout as Readable & { ref?: () => void }).ref?.();
    (this.child.stdin as Writable & { ref?: () => void }).ref?.();
  }

  private idle(): void {
    (this.child.stdout as Readable & { unref?: () => void }).unref?.();
    (this.child.stdin as Writable & { unref?: () => void }).unref?.();
  }
}
