/**
 * Runs one program (the real Claude Code) in a real tmux server on a private socket, at a fixed
 * size, with exactly the environment given (`env -i`), and reads its visible screen back.
 * Test plumbing only: the product's own tmux host lives in io/terminal.
 */
import { execFile } from 'node:child_process';
import { waitStable } from '../helpers/screen-stable.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../helpers/temp.ts';
import { isProcessAlive } from './process-alive.ts';
import { TmuxControlClient } from '../../io/terminal/tmux/control-client.ts';

const run = promisify(execFile);

export interface TmuxLaunch {
  /** A directory of the test's own (kh-test-…): the socket goes in it. */
  dir: string;
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  cols?: number;
  rows?: number;
  /**
   * Reads the screen through one tmux control client kept for the pane's life (the product's own,
   * io/terminal/tmux/control-client.ts), not a tmux process per read, and reads it again only
   * after the pane drew (`%output`): a screen tmux did not redraw is the screen read last. A read
   * was a process start (~3 ms of CPU) every 100–150 ms of a test's every wait and screen watch.
   */
  control?: boolean;
}

export interface PaneStatus {
  dead: boolean;
  /** Exit status once dead, else null. */
  status: number | null;
  pid: number;
}

export interface TmuxPane {
  socket: string;
  /** The process's pid (the pane's first process, which `env` exec'd into). */
  pid: number;
  /** The visible screen; `ansi` keeps SGR attributes (capture-pane -e). */
  capture(opts?: { ansi?: boolean }): Promise<string>;
  /** tmux key names or literal strings, each as its own send-keys call. */
  keys(...keys: string[]): Promise<void>;
  /** Literal text (send-keys -l), no Enter. */
  type(text: string): Promise<void>;
  status(): Promise<PaneStatus>;
  /** A tmux format for the pane, e.g. `#{alternate_on}`. */
  format(fmt: string): Promise<string>;
  /** Waits until `accept` holds for the plain screen; the message names `what` and shows the last screen. */
  waitForScreen(accept: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /**
   * Waits until the screen has not changed for `quietMs` (default 500) while `accept` holds
   * (dialogs drop keys sent as they open; the logo animates after the first box).
   */
  waitStable(what: string, opts?: { quietMs?: number; timeoutMs?: number; accept?: (screen: string) => boolean }): Promise<string>;
  waitDead(timeoutMs?: number): Promise<PaneStatus>;
  /** Kills the server and waits for the program to be gone. Safe to call twice. */
  kill(): Promise<void>;
}

function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Exited but not yet reaped by its parent (the tmux server). */
function isZombie(pid: number): boolean {
  return procState(pid) === 'Z';
}

/** What the kernel says about a pid (for failure messages: alive? zombie? what is it waiting on?). */
function processFacts(pid: number): string {
  if (!isProcessAlive(pid)) return `pid ${pid} is gone`;
  return `pid ${pid} exists in state ${procState(pid) ?? '?'}`;
}

export async function launchInTmux(spec: TmuxLaunch): Promise<TmuxPane> {
  const socket = join(spec.dir, 'tmux.sock');
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const envArgs = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  // remain-on-exit is set globally before the pane exists, so even an instant exit keeps its status.
  await tmux(
    'set-option', '-g', 'remain-on-exit', 'on', ';',
    'new-session', '-d', '-s', 'claude', '-x', String(spec.cols ?? 120), '-y', String(spec.rows ?? 40), '-c', spec.cwd,
    'env', '-i', ...envArgs, ...spec.argv,
  );
  const target = 'claude:0.0';
  const status = async (): Promise<PaneStatus> => {
    const { stdout } = await tmux('display-message', '-p', '-t', target, '#{pane_dead} #{pane_dead_status} #{pane_pid}');
    const [dead, code, pid] = stdout.trim().split(' ');
    return { dead: dead === '1', status: dead === '1' && code !== '' ? Number(code) : null, pid: Number(pid) };
  };
  const { pid } = await status();
  const spawnCapture = async (opts: { ansi?: boolean } = {}) =>
    (await tmux('capture-pane', '-p', ...(opts.ansi ? ['-e'] : []), '-t', target)).stdout;
  let control: TmuxControlClient | null = null;
  /** The pane drew since the plain screen was last read (true until the first read). */
  let drew = true;
  let plain: string | null = null;
  if (spec.control) {
    // Manual: the control client's own size (80x24) must never resize the program's window.
    await tmux('set-option', '-w', '-t', 'claude:0', 'window-size', 'manual');
    control = await TmuxControlClient.open({ bin: 'tmux', socketPath: socket }, 'claude', {
      onOutput: () => { drew = true; },
      onSubscription: () => {},
      onClose: () => { drew = true; },
    });
  }
  const capture = async (opts: { ansi?: boolean } = {}): Promise<string> => {
    if (!control?.alive) return spawnCapture(opts);
    if (opts.ansi) return (await control.command(`capture-pane -p -e -t ${target}`)).map((l) => `${l}\n`).join('');
    if (!drew && plain !== null) return plain;
    drew = false; // before the read: output that lands while it is answered makes the next read read again
    try {
      plain = (await control.command(`capture-pane -p -t ${target}`)).map((l) => `${l}\n`).join('');
    } catch (err) {
      drew = true;
      if (control.alive) throw err;
      return spawnCapture(opts);
    }
    return plain;
  };
  let lastScreen = '';
  const watch = async (accept: (s: string) => boolean): Promise<string | false> => {
    lastScreen = await capture();
    return accept(lastScreen) ? lastScreen : false;
  };
  let killed = false;
  /**
   * tmux built with libutempter (Debian, Ubuntu) can miss a child's SIGCHLD: utempter swaps in
   * its own handler while it updates utmp for the closing pane, and a program that closed its
   * pty just before exiting (Claude Code does) exits inside that window. The child then stays a
   * zombie and #{pane_dead_status} stays empty until tmux's next SIGCHLD (tmux/tmux#311; the
   * dead-before-status race is tmux/tmux#4841). Sending the server a SIGCHLD makes it reap.
   */
  const nudgeReaper = async () => {
    const server = Number((await tmux('display-message', '-p', '#{pid}')).stdout.trim());
    if (Number.isInteger(server) && server > 0) process.kill(server, 'SIGCHLD');
  };
  const waitForScreen = async (accept: (s: string) => boolean, what: string, timeoutMs = 20_000) => {
    try {
      return await waitFor(() => watch(accept), { what, timeoutMs, intervalMs: 100 });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- last screen ---\n${lastScreen}`);
    }
  };

  return {
    socket,
    pid,
    capture,
    async keys(...keys) {
      for (const k of keys) await tmux('send-keys', '-t', target, k);
    },
    async type(text) {
      await tmux('send-keys', '-t', target, '-l', text);
    },
    status,
    async format(fmt) {
      return (await tmux('display-message', '-p', '-t', target, fmt)).stdout.trim();
    },
    waitForScreen,
    async waitStable(what, opts) {
      return waitStable(waitForScreen, what, opts);
    },
    async waitDead(timeoutMs = 20_000) {
      try {
        let deadSince = 0;
        return await waitFor(async () => {
          const s = await status();
          // tmux marks the pane dead when the pty closes and learns the status a moment later.
          if (s.dead && s.status !== null) return s;
          if (s.dead && deadSince === 0) deadSince = Date.now();
          if (deadSince > 0 && Date.now() - deadSince > 300 && isZombie(pid)) await nudgeReaper();
          return false;
        }, { what: 'the pane to be dead with an exit status', timeoutMs, intervalMs: 50 });
      } catch (err) {
        const st = await status().catch(String);
        throw new Error(`${(err as Error).message}\nstatus ${JSON.stringify(st)}, ${processFacts(pid)}\n--- screen ---\n${await capture().catch(String)}`);
      }
    },
    async kill() {
      if (killed) return;
      killed = true;
      await control?.close();
      await tmux('kill-server').catch(() => undefined); // already gone is fine
      // The program gets SIGHUP from the closing pty; make sure it really left.
      try {
        // A zombie has exited; only its parent can reap it, and that parent was just killed.
        await waitFor(() => !isProcessAlive(pid) || isZombie(pid), { what: `pid ${pid} to exit after kill-server`, timeoutMs: 5_000, intervalMs: 50 });
      } catch {
        if (isProcessAlive(pid) && !isZombie(pid)) process.kill(pid, 'SIGKILL');
      }
    },
  };
}
