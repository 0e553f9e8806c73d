/**
 * The monitor session: one session on our private server, holding a placeholder pane and a link
 * to every worker's window, to which the host's single control client attaches.
 *
 * Why one client and not one per worker: a control client only hears `%output` of windows linked
 * into its own session, so with a session per worker we used to attach a client per worker —
 * and tmux 3.3a crashes the whole server when a session is created or a client detaches while
 * another control client is still identifying (control.c:414; a parallel dispatch of 30 did it
 * in CI). Linking each worker's window into this session lets one client, connected once, hear
 * every worker; a worker keeps its own session, so a person can still attach to it alone.
 */
import { readFileSync } from 'node:fs';
import { exactEnvArgv } from '../pane-spec.ts';
import { MONITOR_OPTION, MONITOR_SESSION, serverSettingsArgs } from './pane-info.ts';
import { runTmux, TmuxCommandError, tmuxLiteral, type TmuxContext } from './tmux-command.ts';

/** Runs one tmux command and gives its stdout (spawned, or over the control client). */
export type TmuxRunner = (args: readonly string[]) => Promise<string>;


const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function findMonitor(ctx: TmuxContext): Promise<string | null> {
  try {
    const out = await runTmux(ctx, ['list-sessions', '-F', '#{session_id}\t#{session_name}']);
    for (const line of out.split('\n')) {
      const [id, name] = line.split('\t');
      if (name === MONITOR_SESSION && id && /^\$\d+$/.test(id)) return id;
    }
    return null;
  } catch (err) {
    if (err instanceof TmuxCommandError && (err.noServer || /no current target|no sessions/.test(err.stderr))) return null;
    throw err;
  }
}

/**
 * The monitor session's id, created (with the server, if need be) when missing. Its placeholder
 * pane runs `tail -f /dev/null` with an empty environment: it must never exit, never draw, and
 * never hold anything of ours.
 */
export async function ensureMonitorSession(ctx: TmuxContext, envBin: string): Promise<string> {
  const found = await findMonitor(ctx);
  if (found) return found;
  try {
    const out = await runTmux(ctx, [
      ...serverSettingsArgs(),
      'new-session', '-d', '-s', MONITOR_SESSION, '-x', '80', '-y', '24', '-P', '-F', '#{session_id}',
      ...exactEnvArgv(envBin, { PATH: '/usr/bin:/bin' }, ['tail', '-f', '/dev/null']).map(tmuxLiteral), ';',
      'set-option', '-p', MONITOR_OPTION, '1',
    ]);
    const id = out.trim();
    if (!/^\$\d+$/.test(id)) throw new Error(`tmux new-session for the monitor printed ${JSON.stringify(out)}`);
    return id;
  } catch (err) {
    // Another process made it first: use theirs.
    if (err instanceof TmuxCommandError && /duplicate session/.test(err.stderr)) {
      const raced = await findMonitor(ctx);
      if (raced) return raced;
    }
    throw err;
  }
}

/**
 * Waits (bounded) until no control client is attached to the monitor session. After a restart
 * the previous process's client is still leaving (its stdin closed when that process died), and
 * its departure notifies every control client — a crash if ours is identifying at that moment.
 * A client found there is ended at once: the lock on our state directory says no other daemon of
 * ours is alive, so it is a dead daemon's (or our own dead one's, on a reconnect), and the client
 * of a daemon killed in the middle of a burst of commands (a resume's reads and hooks) lingers for
 * seconds, deaf to `detach-client` while tmux works through what it was sent (issue 26: the next
 * resume of 500 workers waited out the whole bound, 3 s). It used to be left 250 ms to leave on its
 * own first: after a SIGKILL it never had, and every such resume of 500 waited those 250 ms
 * (issue 46). On this machine its process is killed (only a process whose name says tmux); a far
 * host's is asked to detach. We connect only once the listing shows none.
 * Returns false if one is still there after `timeoutMs` (then we connect anyway).
 */
export async function awaitNoControlClients(ctx: TmuxContext, sessionId: string, timeoutMs = 3000): Promise<boolean> {
  const started = Date.now();
  let detached = false;
  for (;;) {
    const out = await runTmux(ctx, ['list-clients', '-F', '#{client_control_mode}\t#{session_id}\t#{client_name}\t#{client_pid}']).catch(() => '');
    const leftover = out.split('\n').map((line) => line.split('\t')).filter(([control, session, name]) => control === '1' && session === sessionId && name);
    if (leftover.length === 0) return true;
    if (Date.now() - started >= timeoutMs) return false;
    if (!detached) {
      detached = true;
      for (const [, , name, pid] of leftover) {
        if (!ctx.ssh && isTmuxProcess(Number(pid)) && killed(Number(pid))) continue;
        await runTmux(ctx, ['detach-client', '-t', name!]).catch(() => {});
      }
    }
    await sleep(25);
  }
}

function killed(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function isTmuxProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) return false;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('tmux');
  } catch {
    return false; // gone already, or no /proc (then the client is asked to detach)
  }
}

/**
 * Links the pane's window into the monitor session unless it is linked already; its window id.
 * `known`: the window and whether it is linked, as a listing just said (a resume asks once for all).
 */
export async function linkIntoMonitor(run: TmuxRunner, paneId: string, monitorId: string, known?: { windowId: string; inMonitor: boolean }): Promise<string> {
  const out = known ? null : await run(['display-message', '-p', '-t', paneId, '#{window_id}\t#{window_linked_sessions_list}']);
  const [windowId, linked] = out === null ? [known!.windowId, known!.inMonitor ? MONITOR_SESSION : ''] : out.trimEnd().split('\t');
  if (!windowId || !/^@\d+$/.test(windowId)) throw new Error(`tmux gave no window for ${paneId}: ${JSON.stringify(out)}`);
  // tmux links a window twice into the same session if asked twice: check first.
  if (!(linked ?? '').split(',').includes(MONITOR_SESSION)) {
    await run(['link-window', '-d', '-s', windowId, '-t', `${monitorId}:`]);
  }
  return windowId;
}
