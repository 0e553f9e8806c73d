/**
 * The control client went away on its own. Server gone: every watched worker is gone, status
 * unknown. Server up (the monitor session killed by hand, the client killed): reconnect. What
 * either means for the watched panes is the registry's (pane-watchers.ts, told by
 * monitor-connection.ts, which calls this); when and how often to try is here.
 */
import { runTmux, TmuxCommandError, type TmuxContext } from './tmux-command.ts';

/** Reconnects after the client was lost while the server stayed up, before giving up. */
export const RECONNECT_DELAYS_MS = [50, 200, 1000, 3000] as const;
/**
 * A server on another machine is lost with its network or sshd, for as long as they are down —
 * which says nothing about the workers (could not tell, never gone): keep trying at this pace
 * after the list above, until the host is reachable again or nobody is watched.
 */
export const REMOTE_RETRY_MS = 3000;

export interface RecoveryDeps {
  ctx: TmuxContext;
  /** Nothing left to recover for: disposed, or no pane watched. */
  over(): boolean;
  connect(): Promise<unknown>;
  serverGone(): void;
  reconnected(): void;
  notice(message: string, fields: Record<string, unknown>): void;
  sleep(ms: number): Promise<void>;
}

/** The delays between tries: the list, then (a far server only) the remote pace for as long as it takes. */
export function* recoveryDelays(remote: boolean): Generator<number> {
  yield* RECONNECT_DELAYS_MS;
  while (remote) yield REMOTE_RETRY_MS;
}

export async function recoverControl(d: RecoveryDeps): Promise<void> {
  const serverUp = () =>
    runTmux(d.ctx, ['list-sessions', '-F', '#{session_id}']).then(
      () => true,
      (err) => !(err instanceof TmuxCommandError && err.noServer),
    );
  for (const delay of recoveryDelays(d.ctx.ssh !== undefined)) {
    if (d.over()) return;
    // Asked again after the pause: reconnecting creates the monitor session, and with it a server
    // when none runs — a server stopped in the pause (`hand daemon stop`, a person's kill-server)
    // must stay stopped.
    let up = await serverUp();
    if (up) {
      await d.sleep(delay);
      if (d.over()) return;
      up = await serverUp();
    }
    if (!up) return d.serverGone();
    try {
      await d.connect();
      return d.reconnected();
    } catch (err) {
      d.notice('tmux control client could not reconnect', { error: err instanceof Error ? err.message : String(err) });
    }
  }
  // Still no client: panes stay readable by spawned reads; pushes resume with the next watch.
}
