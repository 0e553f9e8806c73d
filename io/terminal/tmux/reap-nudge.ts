/**
 * "Dead, status unknown": tmux saw the pty close but has not reaped the process. Usually that
 * is a moment; but tmux built with libutempter sets SIGCHLD to SIG_DFL while its utmp helper
 * runs — and it runs exactly when a pane's pty closes — so the worker's SIGCHLD can be lost and
 * the zombie stays unreaped until some other child of the server exits (measured here: 1 exit
 * in 4 never got a status). We make one exit: a constant `run-shell -b true` job, whose
 * SIGCHLD makes tmux reap every zombie it has, then ask for the status directly (the
 * subscription repeats only on its one-second tick). It keeps nudging, once a second after the
 * first half second, for as long as the pane is watched (bounded at 2 min): a status that
 * appears later is otherwise never reported (docs/2026-11-30-tmux-workarounds.md §3).
 * No "could not tell" fallback: a process that has not exited has not exited.
 *
 * pane-exit-watch.ts calls it for a pane tmux reports dead without a status.
 */
import { parseDeadValue } from './control-protocol.ts';
import { runTmux, type TmuxContext } from './tmux-command.ts';

/** How long a pane dead without a status is nudged for at most. */
export const REAP_NUDGE_MS = 120_000;
/** Between two asks for the status. */
const ASK_EVERY_MS = 50;

export interface ReapNudge {
  ctx: TmuxContext;
  /** The pane's `#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}`, or null when it could not be asked. */
  askDead(): Promise<string | null>;
  /** Nudging is over: the exit was reported, the pane is no longer watched, or the host is going. */
  over(): boolean;
  exited(code: number): void;
  sleep(ms: number): Promise<void>;
}

/** Nudges tmux to reap, and asks for the pane's status, until it has one or `over()`. */
export async function nudgeUntilReaped(n: ReapNudge): Promise<void> {
  const started = Date.now();
  for (let i = 0; !n.over() && Date.now() - started < REAP_NUDGE_MS; i++) {
    // A nudge before the first ask, then before every twentieth (about once a second).
    if (i % (i < 10 ? 10 : 20) === 0) await runTmux(n.ctx, ['run-shell', '-b', 'true']).catch(() => {});
    await n.sleep(ASK_EVERY_MS);
    const value = await n.askDead();
    if (value === null) continue;
    const dead = parseDeadValue(value);
    if (dead.dead && dead.code !== null) n.exited(dead.code);
  }
}
