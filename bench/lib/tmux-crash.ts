/**
 * Evidence when a daemon's tmux server dies under the bench, gathered before the temp home is
 * removed: the kernel's lines about that server's pid (a segfault is logged there, with the
 * faulting offset in the tmux binary), and the reasons the daemon's control clients gave when
 * they ended (tmux's `%exit <reason>`, e.g. "server exited unexpectedly"), from the daemon log.
 * Best effort: dmesg may be unreadable, the log may be missing; nothing here throws.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** The pid of the tmux server on `socket`, or null when none answers. */
export function tmuxServerPid(socket: string): number | null {
  try {
    const out = execFileSync('tmux', ['-S', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 });
    const pid = Number(out.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Kernel log lines naming one of these tmux server pids (segfaults, OOM kills). */
export function kernelLinesFor(pids: Iterable<number>): string[] {
  let text = '';
  try {
    text = execFileSync('dmesg', [], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000, maxBuffer: 32 << 20 });
  } catch {
    return [];
  }
  const needles = [...pids].map((p) => `[${p}]`);
  return text.split('\n').filter((l) => needles.some((n) => l.includes(n)) && /tmux|killed process/i.test(l));
}

/** Distinct messages of the daemon log (pino JSON lines) that say a tmux client or server ended. */
export function daemonLogExits(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  const seen = new Set<string>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!/exited unexpectedly|control client ended|%exit|server exited|lost server/i.test(line)) continue;
    let text = line;
    try {
      const rec = JSON.parse(line) as { msg?: string; err?: { message?: string }; error?: string };
      text = [rec.msg, rec.err?.message, rec.error].filter(Boolean).join(': ') || line;
    } catch {
      // not JSON: keep the raw line
    }
    seen.add(text.slice(0, 400));
  }
  return [...seen];
}
