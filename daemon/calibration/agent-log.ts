/**
 * The agent's own log, kept beside the screens of a failed calibration: a situation not reached
 * (an Enter the agent never acted on, a dialog never drawn) shows on screen only as nothing
 * happening; the agent's log says what it was doing meanwhile. The log is the agent's file in the
 * calibration's throwaway HOME, so it is read as a stranger's (never through a link, a regular
 * file of ours, bounded), and only its end is kept.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readUntrustedFileSync } from '../../io/fs/untrusted-file.ts';

/** How much of the log's end is kept. */
export const AGENT_LOG_TAIL = 32 * 1024;
/** How much of the file is read to find its end (a calibration's log is a few kilobytes). */
const AGENT_LOG_READ = 512 * 1024;

/** The end of the newest `*.log` file directly in `dir` (its name first), or null when there is none to read. */
export function agentLogTail(dir: string): string | null {
  let newest: string | null = null;
  try {
    // The last name in order: an agent that keeps one file a run names it by its time; OpenCode 1.18.33 keeps one file.
    const logs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.log')).map((e) => e.name).sort();
    newest = logs.at(-1) ?? null;
  } catch {
    return null;
  }
  if (newest === null) return null;
  const r = readUntrustedFileSync(join(dir, newest), { maxBytes: AGENT_LOG_READ });
  if (r.kind === 'absent') return null;
  if (r.kind === 'refused') return `${newest}: not read (${r.reason})\n`;
  const cut = r.text.length > AGENT_LOG_TAIL;
  const text = cut ? r.text.slice(-AGENT_LOG_TAIL) : r.text;
  return `${newest}${cut || r.truncated ? ' (its end)' : ''}:\n${text}${text.endsWith('\n') ? '' : '\n'}`;
}
