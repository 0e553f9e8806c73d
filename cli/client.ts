/**
 * Talks to the daemon over its socket, starting it first when it is not running.
 * The CLI never touches a terminal or the database itself (DESIGN.md: data flows one way).
 */
import { connect, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, existsSync, statSync } from 'node:fs';
import { REFUSAL_LINE } from '../actors/daemon/refusal-line.ts';
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../io/root.ts';
import { DaemonUnreachableError, HandError, type ExitCode } from '../io/errors.ts';
import { lineSplitter, type Reply } from '../actors/daemon/protocol.ts';
import type { HomePaths } from './home.ts';

const HAND_BIN = join(KINGSHAND_ROOT, 'bin', 'hand.js');

export class RemoteError extends HandError {
  constructor(code: string, message: string, exitCode: ExitCode, details: Record<string, unknown> = {}) {
    super(code, message, exitCode, details);
  }
}

function tryConnect(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const sock = connect(path);
    sock.once('connect', () => resolve(sock));
    sock.once('error', () => resolve(null));
  });
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** The refusal line a daemon printed to `file` after byte `from`, if any. */
function refusalSince(file: string, from: number): { code: string; message: string; details: Record<string, unknown> } | null {
  let text: string;
  try {
    text = readFileSync(file).subarray(from).toString('utf8');
  } catch {
    return null;
  }
  const line = text.split('\n').reverse().find((l) => l.startsWith(REFUSAL_LINE));
  if (!line) return null;
  try {
    const v = JSON.parse(line.slice(REFUSAL_LINE.length)) as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof v.code !== 'string' || typeof v.message !== 'string') return null;
    return { code: v.code, message: v.message, details: (v.details ?? {}) as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** Starts `hand daemon run` detached and waits (bounded) until its socket accepts connections. */
export async function startDaemon(paths: HomePaths, timeoutMs = 15_000): Promise<Socket> {
  const outStart = existsSync(paths.daemonOut) ? statSync(paths.daemonOut).size : 0;
  const out = openSync(paths.daemonOut, 'a');
  const child = spawn(process.execPath, [HAND_BIN, 'daemon', 'run', '--home', paths.home], {
    detached: true,
    stdio: ['ignore', out, out],
    env: process.env,
  });
  closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  child.unref();
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const sock = await tryConnect(paths.socket);
    if (sock) return sock;
    if (exited !== null) {
      // exit 1 with "already running" means another start won the race: connect to that one.
      const again = await tryConnect(paths.socket);
      if (again) return again;
      // A daemon that refused to start (a lost database) said why: the same refusal, exit 1.
      const refusal = refusalSince(paths.daemonOut, outStart);
      if (refusal) throw new RemoteError(refusal.code, refusal.message, 1, refusal.details);
      throw new DaemonUnreachableError(`the daemon exited with status ${exited} while starting:\n${tail(paths.daemonOut, 5)}\nSee ${paths.daemonOut}; \`hand doctor\` checks the setup.`, { home: paths.home });
    }
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new DaemonUnreachableError(`the daemon did not open ${paths.socket} within ${timeoutMs / 1000}s. See ${paths.daemonOut} and ${paths.log}.`, { home: paths.home });
}

export interface CallOptions {
  /** Start the daemon if it is not running (default true). */
  autostart?: boolean;
  onProgress?: (progress: unknown) => void;
  /** Ends a long call (watch, wait) from the client side. */
  signal?: AbortSignal;
}

export async function connectDaemon(paths: HomePaths, autostart: boolean): Promise<Socket> {
  const sock = await tryConnect(paths.socket);
  if (sock) return sock;
  if (!autostart) {
    throw new DaemonUnreachableError(`no daemon is running for ${paths.home}. Start it with \`hand daemon start\`.`, { home: paths.home });
  }
  return startDaemon(paths);
}

/** One request, one response (with optional progress messages in between). */
export async function call<T = unknown>(paths: HomePaths, method: string, params: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<T> {
  const sock = await connectDaemon(paths, opts.autostart ?? true);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      sock.end();
      fn();
    };
    sock.on(
      'data',
      lineSplitter((line) => {
        let msg: Reply;
        try {
          msg = JSON.parse(line) as Reply;
        } catch {
          return;
        }
        if ('progress' in msg) {
          opts.onProgress?.(msg.progress);
        } else if (msg.ok) {
          finish(() => resolve(msg.result as T));
        } else {
          const e = msg.error;
          finish(() => reject(new RemoteError(e.code, e.message, e.exitCode, e.details ?? {})));
        }
      }),
    );
    sock.on('error', (err) => finish(() => reject(new DaemonUnreachableError(`lost the connection to the daemon: ${err.message}`))));
    sock.on('close', () => finish(() => reject(new DaemonUnreachableError('the daemon closed the connection before answering; see `hand logs`.'))));
    opts.signal?.addEventListener('abort', () => finish(() => reject(new Error('aborted'))));
    sock.write(`${JSON.stringify({ id: 1, method, params })}\n`);
  });
}
