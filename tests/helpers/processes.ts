/**
 * Ending a process by its pid, for cleanups that end only what they started (a daemon named by
 * its lock file, an agent the bench spawned), never by name; and a test's private tmux server
 * with its panes' processes, waited out. Liveness is tests/harness's isProcessAlive, re-exported
 * so a cleanup imports both from one place.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../harness/process-alive.ts';
import { until, waitFor } from './temp.ts';

export { isProcessAlive };

/** Exited but not reaped yet (or gone already): a SIGKILLed daemon is dead from here on. */
export function exitedOrGone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * What a reboot does to an installation: its daemon SIGKILLed and waited out (until its socket
 * refuses), and its tmux server killed with every agent in it.
 */
export async function killDaemonAndTmux(w: { home: string; hand(args: string[]): Promise<{ json: any }> }): Promise<void> {
  const pid = Number((await w.hand(['daemon', 'status', '--json'])).json.pid);
  process.kill(pid, 'SIGKILL');
  await waitFor(() => !isProcessAlive(pid) || exitedOrGone(pid), { what: `daemon ${pid} to die`, timeoutMs: 10_000 });
  await socketRefuses(join(w.home, 'hand.sock'));
  // As after a reboot, the terminal server is gone, not going: kill-server returns before the
  // server has exited, and a daemon started meanwhile met a socket that neither answered nor
  // refused (could not tell, under load, where the test reads lost).
  const sock = join(w.home, 'tmux.sock');
  if ((await endTerminalServer(sock)).length === 0) throw new Error(`no tmux server at ${sock} to kill`);
}

/** SIGKILL (or `signal`), if the process is still there. */
export function killIfAlive(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Resolves once a connection to `socket` is refused (nothing listens): a SIGKILLed daemon's pid
 * reads as a zombie while its other threads still exit, and until the last one has, its listening
 * socket accepts a connection and then resets it.
 */
export async function socketRefuses(socket: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const c = connect(socket);
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (!accepted) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${socket} still accepted connections ${timeoutMs} ms after its daemon was killed`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The pid directories of /proc now. */
const pidNames = (): string[] => readdirSync('/proc').filter((name) => /^\d+$/.test(name));

/**
 * Pids of the processes whose environment holds `text` (this machine's /proc; a sandboxed worker's
 * agent has a pid of its own only inside its sandbox, so a test finds it by what it was given).
 */
export function pidsWithEnv(text: string): number[] {
  const out: number[] = [];
  for (const name of pidNames()) {
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(text)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

export interface ProcessRow {
  pid: number;
  ppid: number;
  /** The session: every process of a tmux pane has the pane's first process's pid here. */
  sid: number;
  comm: string;
  cmdline: string;
}

/**
 * This machine's processes read from /proc, without starting `ps` (a test process forking itself
 * costs milliseconds a fork). `withCmdline`: only rows it accepts read their command line.
 */
export function processTable(withCmdline: (row: Omit<ProcessRow, 'cmdline'>) => boolean = () => false): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const name of pidNames()) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      const row = { pid: Number(name), ppid: Number(f[1]), sid: Number(f[3]), comm };
      const cmdline = withCmdline(row) ? readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').join(' ') : '';
      rows.push({ ...row, cmdline });
    } catch {
      // gone since the listing
    }
  }
  return rows;
}

/**
 * The tmux server at `socket` and every process of its panes' sessions (each pane's first process
 * leads a session of its own), read from /proc: no `tmux` or `ps` started for it.
 */
function terminalProcesses(socket: string): number[] {
  const rows = processTable((r) => r.comm === 'tmux: server');
  const servers = new Set(rows.filter((r) => r.comm === 'tmux: server' && ` ${r.cmdline} `.includes(` ${socket} `)).map((r) => r.pid));
  const leaders = new Set(rows.filter((r) => servers.has(r.ppid) && r.sid === r.pid).map((r) => r.pid));
  return [...servers, ...rows.filter((r) => leaders.has(r.sid)).map((r) => r.pid)];
}

const stillRunning = (pids: readonly number[]): number[] => pids.filter((pid) => isProcessAlive(pid) && !exitedOrGone(pid));

/** Waits until none of `pids` runs; the failure names the ones left. */
async function allGone(pids: number[], what: string, boundMs: number): Promise<void> {
  await until(`${what} (last: the pids still running)`, () => stillRunning(pids), (left) => left.length === 0, boundMs, 25);
}

/**
 * Waits up to `graceMs` for `pids` to end once asked (a hang-up, a SIGTERM), then SIGKILLs those
 * left and waits `graceMs` more for them. Gives the ones it had to kill, as `pid (comm)`.
 */
export async function outlastOrKill(pids: number[], what: string, graceMs: number): Promise<string[]> {
  try {
    await allGone(pids, what, graceMs);
    return [];
  } catch {
    // asked and still running: killed below
  }
  const left = stillRunning(pids);
  const killed = processTable().filter((r) => left.includes(r.pid)).map((r) => `${r.pid} (${r.comm})`);
  for (const pid of left) killIfAlive(pid, 'SIGKILL');
  await allGone(left, `${what} after SIGKILL`, graceMs);
  return killed;
}

/** A pane's process that outlives the hang-up this long is killed. */
const HANG_UP_GRACE_MS = 5_000;

/**
 * Kills the tmux server at `socket` and waits until it and every process of its panes have exited:
 * kill-server returns before they have, and a sandbox still starting makes its mount points in the
 * worker's /tmp while the caller removes the temp directory (ENOTEMPTY, seen in CI). The server's
 * end hangs up its panes, which ends what they run — but not a process that holds SIGHUP blocked:
 * a bubblewrap whose child died while it set the sandbox up waits for it, signals blocked, before
 * the loop that would have seen it go (docs/2026-12-07-the-suite-spreads-its-heavy-files-over-the-run.md),
 * and it failed a run's cleanup once. What is left after HANG_UP_GRACE_MS is killed, and said.
 * Gives the processes it waited out (none: no server was there).
 */
export async function endTerminalServer(socket: string): Promise<number[]> {
  const running = terminalProcesses(socket);
  await new Promise<void>((r) => execFile('tmux', ['-S', socket, 'kill-server'], () => r()));
  const killed = await outlastOrKill(running, `the tmux server at ${socket} and its panes' processes to exit`, HANG_UP_GRACE_MS);
  if (killed.length > 0) console.warn(`${killed.length} process(es) of ${socket} outlived its hang-up by ${HANG_UP_GRACE_MS / 1000} s and were killed: ${killed.join(', ')}`);
  return running;
}
