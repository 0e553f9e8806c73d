/**
 * The only file that composes herdr command lines (DESIGN.md: "only one file knows its command
 * line"). Everything else in the herdr backend speaks of panes, screens and keys and calls the
 * functions here. Commands and flags follow reference/herdr.md §1 and kingshand-control-plane.md
 * §1.4; always an argv array, never a shell string.
 *
 * The CLI is what the backend runs once per pane or per server: status, server, workspace
 * create, agent start/get, the observer stream (and pane rename where the socket's did not
 * take). Per-call verbs — reads, keys, text, the typed launch line, pane probes, close — go over
 * the socket (herdr-socket.ts): a CLI call is a process start, and a supervisor reads a screen
 * after every change (docs/2026-12-02-herdr-reads-over-the-socket.md).
 */
import { execa, type ResultPromise } from 'execa';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';

export interface HerdrContext {
  /** The herdr executable. */
  bin: string;
  /** Complete environment for herdr invocations (HERDR_SOCKET_PATH selects the server). */
  env: Record<string, string>;
}

export interface HerdrRun {
  /** null when the binary could not be run at all. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why the binary could not run (missing, not executable, timed out). */
  spawnError?: string;
}

/** Every command line the backend uses, by purpose. */
export const herdrArgs = {
  /** Three-valued server state; run directly so the exit code is kept (control-plane §1.4). */
  statusJson: (): string[] => ['status', '--json'],
  serverStop: (): string[] => ['server', 'stop'],
  /** Always a new workspace, never `pane split` (§2.9); creation must not steal focus. */
  workspaceCreate: (o: { cwd: string; label: string; env: Record<string, string> }): string[] => [
    'workspace', 'create', '--cwd', o.cwd, '--label', o.label, '--no-focus',
    ...Object.entries(o.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
  ],
  paneRename: (paneId: string, label: string): string[] => ['pane', 'rename', paneId, label],
  /** No `-- <args>` ever (control-plane §2.8); callers only use this for a bare agent command. */
  agentStart: (name: string, kind: string, paneId: string, timeoutMs: number): string[] => [
    'agent', 'start', name, '--kind', kind, '--pane', paneId, '--timeout', String(timeoutMs),
  ],
  agentGet: (name: string): string[] => ['agent', 'get', name],
  /** Read-only NDJSON stream of `terminal.frame` records; observing never resizes the pane. */
  observe: (paneId: string, cols: number, rows: number): string[] => [
    'terminal', 'session', 'observe', paneId, '--cols', String(cols), '--rows', String(rows),
  ],
};

/** Runs one herdr command to completion. Never throws: the caller interprets the outcome. */
export async function runHerdr(ctx: HerdrContext, args: readonly string[], timeoutMs = 30_000): Promise<HerdrRun> {
  try {
    const r = await execa(ctx.bin, args, {
      env: ctx.env,
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      encoding: 'utf8',
      timeout: timeoutMs,
      stdin: 'ignore',
    });
    if (r.exitCode === undefined) {
      return { exitCode: null, stdout: '', stderr: '', spawnError: r.shortMessage ?? 'herdr did not run' };
    }
    return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
  } catch (err) {
    return { exitCode: null, stdout: '', stderr: '', spawnError: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Starts `herdr server` detached (own session, no terminal) so it outlives us, with its working
 * directory at the binary's folder as kingshand does. Resolves once the child was spawned.
 */
export function spawnServer(ctx: HerdrContext, env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const cwd = ctx.bin.includes('/') ? dirname(ctx.bin) : undefined;
    const child = spawn(ctx.bin, ['server'], { env, cwd, detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => resolve(child));
  });
}

/** `terminal session observe` as a long-running child; stdout carries the frames. */
export function spawnObserver(ctx: HerdrContext, paneId: string, cols: number, rows: number): ResultPromise<{ buffer: false; reject: false; stdin: 'ignore' }> {
  return execa(ctx.bin, herdrArgs.observe(paneId, cols, rows), {
    env: ctx.env,
    extendEnv: false,
    buffer: false,
    reject: false,
    stdin: 'ignore',
  });
}
