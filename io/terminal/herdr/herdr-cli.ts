/**
 * The only file that composes herdr command lines (DESIGN.md: "only one file knows its command
 * line"). Everything else in the herdr backend speaks of panes, screens and keys and calls the
 * functions here. Commands and flags follow reference/herdr.md §1 and kingshand-control-plane.md
 * §1.4; always an argv array, never a shell string.
 */
import { execa, type ResultPromise } from 'execa';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { assertKey } from '../keys.ts';
import type { Key, NamedKey } from '../types.ts';

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

/** herdr's key names (reference §1.5) for our one-key vocabulary. */
const KEY_TOKENS: Record<NamedKey, string> = {
  enter: 'enter',
  escape: 'esc',
  up: 'up',
  down: 'down',
  left: 'left',
  right: 'right',
  tab: 'tab',
  btab: 'shift+tab',
  space: 'space',
  backspace: 'backspace',
  'ctrl-c': 'ctrl+c',
  'ctrl-u': 'ctrl+u',
};

/** One key as herdr names it. A lone `+` would read as a modifier joiner, so it is `plus`. */
export function herdrKeyToken(key: Key): string {
  assertKey(key);
  if (typeof key === 'string') return KEY_TOKENS[key];
  if (key.char === ' ') return 'space';
  if (key.char === '+') return 'plus';
  return key.char;
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
  workspaceList: (): string[] => ['workspace', 'list'],
  paneList: (): string[] => ['pane', 'list'],
  paneGet: (paneId: string): string[] => ['pane', 'get', paneId],
  paneRename: (paneId: string, label: string): string[] => ['pane', 'rename', paneId, label],
  /** Types a line into the pane's shell, then Enter. */
  paneRun: (paneId: string, line: string): string[] => ['pane', 'run', paneId, line],
  /** The live viewport, with SGR attributes. The only read that is ever classified. */
  readVisible: (paneId: string): string[] => ['pane', 'read', paneId, '--source', 'visible', '--format', 'ansi'],
  /** Scrollback for people; never classified. */
  readScrollback: (paneId: string, lines: number): string[] => [
    'pane', 'read', paneId, '--source', 'recent-unwrapped', '--lines', String(lines),
  ],
  /** Exactly one key per invocation (control-plane §7: `down enter` in one call is forbidden). */
  sendKey: (paneId: string, key: Key): string[] => ['pane', 'send-keys', paneId, herdrKeyToken(key)],
  /** Raw bytes: no Enter, no bracketed paste. */
  sendText: (paneId: string, text: string): string[] => ['pane', 'send-text', paneId, text],
  paneClose: (paneId: string): string[] => ['pane', 'close', paneId],
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
