/**
 * What tmux tells us about a pane, in one format string, and the server-wide settings every
 * worker depends on.
 */
import type { PaneInfo } from '../types.ts';
import { parseDeadValue } from './control-protocol.ts';
import { runTmux, TmuxCommandError, type TmuxContext } from './tmux-command.ts';

/**
 * tmux pane user option holding the worker's real name (session names are sanitised). A pane
 * option, not a session one: the pane is also listed under the monitor session, where a session
 * option would not be found (the format lookup falls back to the session, so panes named by an
 * older version still resolve).
 */
export const NAME_OPTION = '@kh_name';
/** Pane user option marking the monitor session's placeholder pane (monitor-session.ts). */
export const MONITOR_OPTION = '@kh_monitor';
/** Reserved session name of the monitor session (sessionNameFor never gives it to a worker). */
export const MONITOR_SESSION = 'kh-monitor';

const FIELDS = [
  '#{pane_id}',
  '#{session_id}',
  `#{${NAME_OPTION}}`,
  '#{session_name}',
  '#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}',
  '#{pane_width}',
  '#{pane_height}',
  '#{pane_pid}',
  // Never empty (a trailing empty field would be lost to trimming): 1 on the placeholder, else 0.
  `#{?#{${MONITOR_OPTION}},1,0}`,
];
export const PANE_FORMAT = FIELDS.join('\t');

/** PANE_FORMAT, then the pane's window and the sessions it is linked into (what a re-attach needs). */
export const ATTACH_FORMAT = `${PANE_FORMAT}\t#{window_id}\t#{window_linked_sessions_list}`;

/** What one `list-panes -a -F ATTACH_FORMAT` says of each pane asked about; an unreadable line makes it null. */
export function parseAttachList(out: string, wanted: ReadonlySet<string>): Map<string, { pane: TmuxPane; windowId: string; inMonitor: boolean }> | null {
  const found = new Map<string, { pane: TmuxPane; windowId: string; inMonitor: boolean }>();
  for (const line of out.split('\n')) {
    if (line.trim() === '') continue;
    const f = line.split('\t');
    const pane = parsePaneLine(f.slice(0, -2).join('\t'));
    const windowId = f.at(-2) ?? '';
    if (!pane || !/^@\d+$/.test(windowId)) return null;
    if (!wanted.has(pane.paneId) || pane.placeholder) continue;
    // A linked window is listed once per session: the worker's own row is the one kept.
    const seen = found.get(pane.paneId);
    if (!seen || seen.pane.sessionName === MONITOR_SESSION) found.set(pane.paneId, { pane, windowId, inMonitor: (f.at(-1) ?? '').split(',').includes(MONITOR_SESSION) });
  }
  return found;
}

export interface TmuxPane extends PaneInfo {
  sessionId: string;
  sessionName: string;
  /** The monitor session's placeholder pane, never a worker. */
  placeholder: boolean;
}

/** One line of PANE_FORMAT output; null if the line is not one (defensive: strict list). */
export function parsePaneLine(line: string): TmuxPane | null {
  const f = line.split('\t');
  if (f.length !== FIELDS.length || !/^%\d+$/.test(f[0]!) || !/^\$\d+$/.test(f[1]!)) return null;
  const dead = parseDeadValue(f[4]!);
  const pid = Number.parseInt(f[7]!, 10);
  return {
    paneId: f[0]!,
    sessionId: f[1]!,
    sessionName: f[3]!,
    placeholder: f[8] === '1',
    name: f[2] || f[3]!,
    alive: !dead.dead,
    exitCode: dead.code,
    cols: Number.parseInt(f[5]!, 10),
    rows: Number.parseInt(f[6]!, 10),
    ...(Number.isFinite(pid) && pid > 0 && !dead.dead ? { pid } : {}),
    survivesRestart: true,
  };
}

/**
 * What tmux knows about one pane; null if there is no such pane (or no server at all). `run`
 * sends the command over the host's control client when one is up.
 */
export async function describePane(
  ctx: TmuxContext,
  paneId: string,
  run: (args: readonly string[]) => Promise<string> = (args) => runTmux(ctx, args),
): Promise<TmuxPane | null> {
  try {
    const out = await run(['display-message', '-p', '-t', paneId, PANE_FORMAT]);
    return parsePaneLine(out.trimEnd());
  } catch (err) {
    if (err instanceof TmuxCommandError && (err.noTarget || err.noServer)) return null;
    throw err;
  }
}

/** The public part of a TmuxPane. */
export function publicInfo(pane: TmuxPane): PaneInfo {
  const { sessionId: _sessionId, sessionName: _sessionName, placeholder: _placeholder, ...info } = pane;
  return info;
}

/**
 * The workers in `list-panes -a` output: every worker's window is linked into the monitor
 * session too, so a pane shows up once per session it is in — keep one row per pane, the one
 * from the worker's own session when there is one, and leave the placeholder out. Null if a
 * line is not one of ours (strict: a listing we cannot read is not an empty fleet).
 */
export function parsePaneList(out: string): TmuxPane[] | { badLine: string } {
  const byId = new Map<string, TmuxPane>();
  for (const line of out.split('\n')) {
    if (line.trim() === '') continue;
    const pane = parsePaneLine(line);
    if (!pane) return { badLine: line };
    if (pane.placeholder) continue;
    const seen = byId.get(pane.paneId);
    if (!seen || seen.sessionName === MONITOR_SESSION) byId.set(pane.paneId, pane);
  }
  return [...byId.values()];
}

/**
 * tmux session names cannot hold "." or ":" (target syntax); anything unusual becomes "_".
 * The real name is kept in NAME_OPTION.
 */
export function sessionNameFor(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_@+=-]/g, '_');
  return safe === MONITOR_SESSION ? `${safe}_` : safe;
}

/**
 * Settings applied every time we touch the server (a server started by an older version of us,
 * or by hand, gets them too). As one `;`-separated argv fragment.
 */
export function serverSettingsArgs(): string[] {
  const settings: string[][] = [
    // The server is ours and stays up between workers, so `serverState` means something.
    ['set-option', '-s', 'exit-empty', 'off'],
    // Keeps the last screen and the exit status of a worker readable after it exits.
    ['set-option', '-g', 'remain-on-exit', 'on'],
    // tmux 3.3 writes "Pane is dead (...)" into the pane otherwise, scrolling the last screen.
    ['set-option', '-gq', 'remain-on-exit-format', ''],
    // No status line: every row of the window is the worker's.
    ['set-option', '-g', 'status', 'off'],
    ['set-option', '-g', 'history-limit', '10000'],
  ];
  return settings.flatMap((cmd) => [...cmd, ';']);
}
