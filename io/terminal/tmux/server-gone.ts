/**
 * Whether the tmux server a pane was made on is gone for certain (issue 41 item 3). The daemon
 * notes each pane's server as `<pid>.<start time>` (tmux's `#{pid}.#{start_time}`, seconds since
 * the epoch). A server that no longer runs cannot hold its panes: when no process has that pid,
 * or the process that has it started at another time (the pid was given to another process, as
 * after a reboot), every pane of that server is gone with the agent in it — the worker is lost,
 * its conversation on disk. Anything this cannot read answers null (could not tell), never "gone".
 */
import { readFileSync } from 'node:fs';

/** How far apart the recorded start and the process's may be (the kernel counts in ticks, tmux in seconds). */
const SLACK_S = 2;

function bootTimeS(): number | null {
  const m = /^btime\s+(\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
  return m ? Number(m[1]) : null;
}

/** The process's start, seconds since the epoch, from /proc (null: no such process, or unreadable). */
function startedAtS(pid: number, ticksPerS: number): number | null | 'absent' {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : null;
  }
  // Fields after the command (which may hold spaces and parentheses): state is field 3, starttime field 22.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[19]);
  const boot = bootTimeS();
  return Number.isFinite(ticks) && boot !== null ? boot + ticks / ticksPerS : null;
}

/**
 * true: the server of `identity` is not running (no such process, or another process has its pid);
 * false: it still runs; null: could not tell (no /proc, an identity of another form).
 */
export function tmuxServerGone(identity: string, ticksPerS = 100): boolean | null {
  const m = /^(\d+)\.(\d+)$/.exec(identity);
  if (!m) return null;
  const pid = Number(m[1]);
  const started = Number(m[2]);
  try {
    const now = startedAtS(pid, ticksPerS);
    if (now === 'absent') return true;
    if (now === null) return null;
    // A zombie server has gone too (pid 1 in a container may not reap it).
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return true;
    return Math.abs(now - started) > SLACK_S;
  } catch {
    return null;
  }
}
