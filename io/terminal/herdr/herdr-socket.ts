/**
 * herdr's socket API (reference §1.8): newline-delimited JSON over a Unix socket, one request per
 * line. The backend uses it for every per-call verb — screen and scrollback reads, keys, text,
 * pane probes, lists, close — because a CLI call is a process start and a supervisor reads a
 * screen after every change (docs/2026-12-02-herdr-reads-over-the-socket.md); and where the CLI
 * has no fitting verb: bracketed-paste text (`pane.send_input`) and the pushed events
 * (`events.subscribe`). The only file that composes socket requests.
 */
import { createConnection, type Socket } from 'node:net';
import type { Key } from '../types.ts';
import { herdrKeyToken } from './key-names.ts';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** herdr's resolution order: HERDR_SOCKET_PATH → HERDR_SESSION=<name> → the default socket. */
export function resolveSocketPath(env: Record<string, string | undefined>): string {
  if (env.HERDR_SOCKET_PATH) return env.HERDR_SOCKET_PATH;
  const config = join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'herdr');
  if (env.HERDR_SESSION) return join(config, 'sessions', env.HERDR_SESSION, 'herdr.sock');
  return join(config, 'herdr.sock');
}

export type SocketReply<T> =
  | { ok: true; result: T }
  | { ok: false; error: { code: string; message: string }; unreachable: boolean };

let counter = 0;

/** Hands every complete line the socket delivers to onLine. */
function onLines(socket: Socket, onLine: (line: string) => void): void {
  let buffer = '';
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine(line);
    }
  });
}

/** One request on its own connection. `unreachable` = nobody answers on the socket. */
export function socketRequest<T = Record<string, unknown>>(
  socketPath: string,
  method: string,
  params: Record<string, unknown>,
  timeoutMs = 15_000,
): Promise<SocketReply<T>> {
  return new Promise((resolve) => {
    const id = `kh_${process.pid}_${++counter}`;
    let settled = false;
    const socket = createConnection(socketPath);
    const finish = (reply: SocketReply<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(
      () => finish({ ok: false, error: { code: 'timeout', message: `no reply to ${method} within ${timeoutMs} ms` }, unreachable: false }),
      timeoutMs,
    );
    socket.on('connect', () => socket.write(`${JSON.stringify({ id, method, params })}\n`));
    onLines(socket, (line) => {
      try {
        const reply = JSON.parse(line) as { result?: T; error?: { code: string; message: string } };
        if (reply.error) finish({ ok: false, error: reply.error, unreachable: false });
        else finish({ ok: true, result: reply.result as T });
      } catch {
        finish({ ok: false, error: { code: 'transport', message: `unreadable reply to ${method}` }, unreachable: false });
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const unreachable = err.code === 'ENOENT' || err.code === 'ECONNREFUSED';
      finish({ ok: false, error: { code: unreachable ? 'server_not_running' : 'transport', message: err.message }, unreachable });
    });
    socket.on('close', () => finish({ ok: false, error: { code: 'transport', message: `connection closed before a reply to ${method}` }, unreachable: false }));
  });
}

/**
 * herdr says a pane does not exist. `pane_not_found` is the code herdr's source uses (§1.6); the
 * socket example in §1.8 shows `not_found` with "pane not found", so both are taken.
 */
export function paneNotFound(error: { code: string }): boolean {
  return error.code === 'pane_not_found' || error.code === 'not_found';
}

/** What `pane.read` answers: `.result.read` (`PaneReadResult`, reference §1.3). */
export interface PaneReadReply {
  read?: { text?: unknown; revision?: unknown };
}

/** Requests the backend makes over the socket, by purpose. */
export const herdrRequests = {
  /** The live viewport, with SGR attributes. The only read that is ever classified (control-plane §3.1). */
  readVisible: (paneId: string) => ['pane.read', { pane_id: paneId, source: 'visible', format: 'ansi', strip_ansi: false }] as const,
  /** Scrollback for people, soft wraps joined; never classified. herdr caps `lines` at 1000. */
  readScrollback: (paneId: string, lines: number) =>
    ['pane.read', { pane_id: paneId, source: 'recent-unwrapped', lines, format: 'text', strip_ansi: true }] as const,
  /** Exactly one key per request (control-plane §7: `down enter` in one call is forbidden). */
  sendKey: (paneId: string, key: Key) => ['pane.send_keys', { pane_id: paneId, keys: [herdrKeyToken(key)] }] as const,
  /** Raw bytes: no Enter, no bracketed paste. */
  sendText: (paneId: string, text: string) => ['pane.send_text', { pane_id: paneId, text }] as const,
  /** Text into the pane, wrapped in bracketed paste when the app enabled it; no Enter. */
  pasteText: (paneId: string, text: string) => ['pane.send_input', { pane_id: paneId, text }] as const,
  /** A line typed into the pane's shell, then Enter: what `herdr pane run` does (reference §1.3). */
  runLine: (paneId: string, line: string) => ['pane.send_input', { pane_id: paneId, text: line, keys: ['enter'] }] as const,
  paneGet: (paneId: string) => ['pane.get', { pane_id: paneId }] as const,
  paneList: () => ['pane.list', {}] as const,
  /**
   * The pane's label. reference §1.8 lists `pane.rename` but not its params; `label` is the
   * field the label comes back in (PaneInfo) and the CLI's word for it, and the caller checks
   * the returned pane to know it took.
   */
  paneRename: (paneId: string, label: string) => ['pane.rename', { pane_id: paneId, label }] as const,
  workspaceList: () => ['workspace.list', {}] as const,
  paneClose: (paneId: string) => ['pane.close', { pane_id: paneId }] as const,
  /** A one-line read: only its content revision is wanted (the no-observer fallback). */
  paneRevision: (paneId: string) => ['pane.read', { pane_id: paneId, source: 'visible', lines: 1, format: 'text', strip_ansi: true }] as const,
  /**
   * An event stream held only for its end: herdr drops it as the server goes (`server stop`).
   * `workspace.closed` because every stopping server closes its workspaces.
   */
  serverGone: () => ['events.subscribe', { subscriptions: [{ type: 'workspace.closed' }] }] as const,
  /** The events a pane watcher needs. `pane.agent_status_changed` requires a pane id. */
  paneEvents: (paneId: string) => [
    'events.subscribe',
    {
      subscriptions: [
        { type: 'pane.agent_status_changed', pane_id: paneId },
        { type: 'pane.updated' },
        { type: 'pane.agent_detected' },
        { type: 'pane.exited' },
        { type: 'pane.closed' },
      ],
    },
  ] as const,
};

export interface HerdrEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface Subscription {
  close(): void;
}

/**
 * Opens a subscription; `onEvent` gets every pushed event, `onEnd` fires once when the stream
 * ends for any reason other than close() (server gone, refused). Resolves after the server
 * acknowledged (`subscription_started`) or refused.
 */
export function subscribe(
  socketPath: string,
  request: readonly [string, Record<string, unknown>],
  onEvent: (e: HerdrEvent) => void,
  onEnd: (reason: string) => void,
): Promise<Subscription> {
  return new Promise((resolve) => {
    let acknowledged = false;
    let closedByUs = false;
    let ended = false;
    const socket: Socket = createConnection(socketPath);
    const end = (reason: string) => {
      if (ended) return;
      ended = true;
      if (!acknowledged) resolve(handle);
      if (!closedByUs) onEnd(reason);
    };
    const handle: Subscription = {
      close() {
        closedByUs = true;
        socket.destroy();
      },
    };
    socket.on('connect', () => socket.write(`${JSON.stringify({ id: `kh_sub_${++counter}`, method: request[0], params: request[1] })}\n`));
    onLines(socket, (line) => {
      let message: { result?: unknown; error?: { code: string; message: string }; event?: string; data?: Record<string, unknown> };
      try {
        message = JSON.parse(line);
      } catch {
        return; // unknown lines are tolerated, as the protocol asks
      }
      if (!acknowledged) {
        acknowledged = true;
        resolve(handle);
        if (message.error) {
          end(`subscription refused: ${message.error.code} - ${message.error.message}`);
          socket.destroy();
        }
        return;
      }
      if (typeof message.event === 'string') onEvent({ event: message.event, data: message.data ?? {} });
    });
    socket.on('error', (err) => end(err.message));
    socket.on('close', () => end('the server closed the event stream'));
  });
}
