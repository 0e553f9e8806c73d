/**
 * Talks to the daemon over its socket, starting it first when it is not running.
 * The CLI never touches a terminal or the database itself (DESIGN.md: data flows one way).
 */
import { connect, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { closeSync, readFileSync, existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { openPrivateAppend } from '../io/fs/private-files.ts';
import { pidAlive, readLockHolder } from '../persistence/lock-holder.ts';
import { REFUSAL_LINE } from '../contract/refusal-line.ts';
import { basename, dirname, join } from 'node:path';
import { KINGSHAND_ROOT } from '../io/root.ts';
import { DaemonUnreachableError, HandError, type ExitCode } from '../contract/errors.ts';
import { lineSplitter, type Reply } from '../contract/protocol.ts';
import type { MethodName, ParamsOf, ProgressOf, ResultOf } from '../contract/methods.ts';
import type { HomePaths } from '../contract/home.ts';
import { CONNECT_BOUND_MS, noAnswerError, replyBoundMs } from './call-bounds.ts';
import { cliEnv, cliIo, outsideCliRun } from './io.ts';
import { readAuthority } from '../io/fs/authority-key.ts';
import { HAND_CALLER_ENV } from '../contract/hand-caller.ts';

const HAND_BIN = join(KINGSHAND_ROOT, 'bin', 'hand.js');

export class RemoteError extends HandError {
  constructor(code: string, message: string, exitCode: ExitCode, details: Record<string, unknown> = {}) {
    super(code, message, exitCode, details);
  }
}

/** Connects within `boundMs`; null when nothing listens (or the connect did not complete in time). */
function tryConnect(path: string, boundMs = CONNECT_BOUND_MS): Promise<Socket | null> {
  return new Promise((resolve) => {
    const sock = connect(path);
    const timer = setTimeout(() => {
      sock.destroy();
      resolve(null);
    }, boundMs);
    sock.once('connect', () => {
      clearTimeout(timer);
      resolve(sock);
    });
    sock.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

/** What this start's daemon wrote to daemon.out: the bytes after `from`, never an earlier run's lines. */
function writtenSince(file: string, from: number, lines: number): string {
  if (!existsSync(file)) return '';
  const text = readFileSync(file).subarray(from).toString('utf8').trimEnd();
  return text === '' ? '' : text.split('\n').slice(-lines).join('\n');
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Grace for the winner of a start race to write its pid file after the lock was last seen held. */
const LOCK_RACE_GRACE_MS = 5000;

/** After our daemon exited: is another one (the winner of a start race) holding the home? */
function otherDaemonHolds(home: string, ourPid: number | undefined): boolean {
  const holder = readLockHolder(home);
  return holder !== null && holder.pid !== ourPid && pidAlive(holder.pid);
}

function lostLockRace(said: string): boolean {
  return said.includes('already holds the state directory');
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
  const outStart = sizeOf(paths.daemonOut);
  const out = openPrivateAppend(paths.daemonOut);
  const child = spawn(process.execPath, [HAND_BIN, 'daemon', 'run', '--home', paths.home], {
    detached: true,
    stdio: ['ignore', out, out],
    env: cliEnv(),
  });
  closeSync(out);
  let exited: number | null = null;
  /** When a lock holder other than our daemon was last seen (or our daemon said it lost the lock). */
  let heldAt: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  child.unref();
  // Woken the moment the socket file appears (the daemon binds it as it listens), not only every
  // 30 ms: a resume's clock runs until this connect.
  const appeared = socketAppearance(paths.socket);
  try {
    const start = Date.now();
    while (Date.now() - start < timeoutMs) {
      const sock = await tryConnect(paths.socket);
      if (sock) return sock;
      if (exited !== null) {
        // Several starts at once: every loser of the race for the lock exits, while the winner may
        // still be opening its database and socket. Connecting once, at once, was too early (6 of
        // 30 concurrent starts failed): wait for the winner while it lives.
        if (otherDaemonHolds(paths.home, child.pid)) heldAt = Date.now();
        else heldAt ??= lostLockRace(writtenSince(paths.daemonOut, outStart, 50)) ? Date.now() : null;
        if (heldAt !== null && Date.now() - heldAt < LOCK_RACE_GRACE_MS) {
          await appeared.nap(30);
          continue;
        }
        // A daemon that refused to start (a lost database) said why: the same refusal, exit 1.
        const refusal = refusalSince(paths.daemonOut, outStart);
        if (refusal) throw new RemoteError(refusal.code, refusal.message, 1, refusal.details);
        // The daemon's own refusal (its last line, "hand: …") is the cause: it leads the message.
        const said = writtenSince(paths.daemonOut, outStart, 5);
        const cause = said.split('\n').filter((l) => l.startsWith('hand: ')).at(-1)?.slice('hand: '.length);
        const head = cause ? `the daemon could not start: ${cause}` : `the daemon exited with status ${exited} while starting${said ? `:\n${said}` : ' and said nothing'}`;
        throw new DaemonUnreachableError(`${head}\nSee ${paths.daemonOut}; \`hand doctor\` checks the setup.`, { home: paths.home, daemonExit: exited });
      }
      await appeared.nap(30);
    }
    throw new DaemonUnreachableError(`the daemon did not open ${paths.socket} within ${timeoutMs / 1000}s. See ${paths.daemonOut} and ${paths.log}.`, { home: paths.home });
  } finally {
    appeared.close();
  }
}

/** Naps that end early when `socket`'s file is made (a directory watch; without one, plain naps). */
export function socketAppearance(socket: string): { nap(ms: number): Promise<void>; close(): void } {
  let wake: (() => void) | null = null;
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dirname(socket), (_event, name) => {
      if (name === basename(socket)) wake?.();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = null; // no watch here (a limit reached): the naps still end on their timer
  }
  return {
    nap: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        wake = done;
        function done(): void {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
      }),
    close: () => watcher?.close(),
  };
}

export interface CallOptions<M extends MethodName = MethodName> {
  /** Start the daemon if it is not running (default true). */
  autostart?: boolean;
  onProgress?: (progress: ProgressOf<M>) => void;
  /** Ends a long call (watch, wait) from the client side. */
  signal?: AbortSignal;
  /** How long to wait for the reply; default per method (cli/call-bounds.ts). */
  replyBoundMs?: number;
}

export async function connectDaemon(paths: HomePaths, autostart: boolean): Promise<Socket> {
  const sock = await tryConnect(paths.socket);
  if (sock) return sock;
  if (!autostart) {
    throw new DaemonUnreachableError(`no daemon is running for ${paths.home}. Start it with \`hand daemon start\`.`, { home: paths.home });
  }
  // A worker's own environment (its launch set HAND_WORKER_ID) never starts a daemon: a plain `hand`
  // run by a worker outside a sandbox started a second daemon and tmux server under the person's
  // home and left them running (issue 43).
  const env = cliEnv();
  if (env.HAND_WORKER_ID) {
    throw new DaemonUnreachableError(`no daemon answers for ${paths.home}, and this is a worker's environment (HAND_WORKER_ID=${env.HAND_WORKER_ID}): a worker does not start kingshand's daemon. Ask the person in your report.`, { home: paths.home });
  }
  // A run in process (a test) starts its daemon its own way; the binary starts `hand daemon run`.
  const starter = cliIo().startDaemon;
  if (!starter) return startDaemon(paths);
  await outsideCliRun(() => starter(paths, env));
  const started = await tryConnect(paths.socket);
  if (!started) throw new DaemonUnreachableError(`the daemon started for ${paths.home} does not answer on ${paths.socket}.`, { home: paths.home });
  return started;
}

/**
 * What a call takes after its method: the method's params (optional when the method needs none)
 * and the options.
 */
export type CallArgs<M extends MethodName> = Partial<Record<never, never>> extends ParamsOf<M>
  ? [params?: ParamsOf<M>, opts?: CallOptions<M>]
  : [params: ParamsOf<M>, opts?: CallOptions<M>];

/**
 * One request, one response (with optional progress messages in between), typed end to end by
 * the method map (contract/methods.ts): the params the method takes, the result it answers.
 */
export async function call<M extends MethodName>(paths: HomePaths, method: M, ...args: CallArgs<M>): Promise<ResultOf<M>> {
  const [params = {}, opts = {}] = args;
  return exchange<M>(paths, method, params, opts);
}

/** `call` bound to one home and default options (a bench or a test that must never start a daemon). */
export function clientOf(paths: HomePaths, defaults: Pick<CallOptions, 'autostart' | 'replyBoundMs'>) {
  return <M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<ResultOf<M>> => {
    const [params = {}, opts = {}] = args;
    return exchange<M>(paths, method, params, { ...defaults, ...opts });
  };
}

/**
 * A request whose params the compiler has not checked, answered with what the daemon said: for
 * tests of the daemon's edge (wrong types, junk, names it does not serve), never for a face.
 */
export function callUnchecked(paths: HomePaths, method: string, params: object = {}, opts: CallOptions = {}): Promise<unknown> {
  return exchange<MethodName>(paths, method, params, opts);
}

async function exchange<M extends MethodName>(paths: HomePaths, method: string, params: object, opts: CallOptions<M>): Promise<ResultOf<M>> {
  const sock = await connectDaemon(paths, opts.autostart ?? true);
  const boundMs = opts.replyBoundMs ?? replyBoundMs(method, params);
  return new Promise<ResultOf<M>>((resolve, reject) => {
    let settled = false;
    // A frozen daemon accepts the connection and never answers: the bound ends the wait and names it.
    const timer = setTimeout(() => finish(() => reject(noAnswerError(paths, method, boundMs))), boundMs);
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      fn();
    };
    sock.on(
      'data',
      lineSplitter((line) => {
        // The daemon answers this method with its map entry's result (the server is typed by the same map).
        let msg: Reply<M>;
        try {
          msg = JSON.parse(line) as Reply<M>;
        } catch {
          return;
        }
        if ('progress' in msg) {
          opts.onProgress?.(msg.progress);
        } else if (msg.ok) {
          finish(() => resolve(msg.result));
        } else {
          const e = msg.error;
          finish(() => reject(new RemoteError(e.code, e.message, e.exitCode, e.details ?? {})));
        }
      }),
    );
    sock.on('error', (err) => finish(() => reject(new DaemonUnreachableError(`lost the connection to the daemon: ${err.message}`))));
    sock.on('close', () => finish(() => reject(new DaemonUnreachableError('the daemon closed the connection before answering; see `hand logs`.'))));
    opts.signal?.addEventListener('abort', () => finish(() => reject(new Error('aborted'))));
    // The person's proof, read after the connect (a daemon this call started has just written it).
    // Without it (a worker whose sandbox hides the state directory) only ping and hook are served.
    const authority = readAuthority(paths.home);
    // The Hand's shell and MCP server say so (the kit sets HAND_CALLER=hand): the person's own settings are refused to it.
    const via = process.env[HAND_CALLER_ENV] === 'hand' ? { via: 'hand' } : {};
    sock.write(`${JSON.stringify({ id: 1, method, params, ...(authority ? { authority } : {}), ...via })}\n`);
  });
}
