/**
 * What `hand hook <event>` delivers to the daemon for one worker: the few payload fields the
 * witness reads (never the prompt text), and where it queues them when the daemon is not there.
 */
import { join } from 'node:path';

export interface HookNote {
  /** The worker the hook speaks for (HAND_WORKER_ID at launch). */
  id: string;
  /** Claude Code's hook_event_name (Notification, Stop, UserPromptSubmit, SessionStart, SessionEnd). */
  event: string;
  /** When the agent fired the hook, as near as can be told (ms since the epoch): hookFiredAt. */
  at: number;
  /** Notification: what Claude Code says ("Claude needs your permission to use Bash"). */
  message?: string;
  /** Notification: permission_prompt, idle_prompt, elicitation_dialog, auth_success (newer versions). */
  notificationType?: string;
  /** The session's transcript (JSONL): token usage is read from it. */
  transcriptPath?: string;
  sessionId?: string;
  /** The worker's hook capability (io/agent/claude/hook-capability.ts): the note speaks only for that worker. */
  cap?: string;
  /**
   * Stop: how many background tasks the agent listed as still in flight (Claude Code 2.1.332's
   * `background_tasks`, "empty when nothing is in flight"); absent when the payload had no list.
   */
  backgroundTasks?: number;
}

/** Hooks that could not reach the daemon wait here (0600, one JSON note a line); drained at start and while it runs. */
export const hookQueuePath = (home: string): string => join(home, 'hook-queue.jsonl');

/**
 * The most the daemon keeps of each field (issue 37: a note is written by a worker's hook, so it is
 * a stranger's input; `hand hook` cuts it the same way, but the daemon's edge is the one that
 * holds — anything that reaches the socket or the queue file is cut here again).
 */
export const NOTE_FIELD_CAPS = { id: 128, event: 64, message: 2000, notificationType: 64, transcriptPath: 4096, sessionId: 128, cap: 256 } as const;

const str = (v: unknown, max: number = NOTE_FIELD_CAPS.message): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined);

/** How far back a hook's own dating may reach: a hook process starts in well under this. */
export const HOOK_DATING_WINDOW_MS = 5_000;

/**
 * When the agent fired a hook. Not when `hand hook` got round to reading the clock: under load a
 * hook process spends 100–500 ms starting, and a word from before our input (a key answering the
 * dialog that followed it) then reads as newer than that input and settles a turn still going
 * (Gemini CLI fires AfterAgent after every model reply, a tool call's included). The earliest of
 * the payload's own `timestamp` (Gemini CLI's ISO time) and this process's start, when either
 * lies within the window before now; never later than now, so a payload can only make its note
 * older — staler for its own worker — never fresher.
 */
export function hookFiredAt(now: number, payload: unknown, processStart?: number): number {
  const p = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const stamped = typeof p.timestamp === 'string' && p.timestamp.length <= 40 ? Date.parse(p.timestamp) : NaN;
  const inWindow = (t: number | undefined): t is number => t !== undefined && Number.isFinite(t) && t <= now && t >= now - HOOK_DATING_WINDOW_MS;
  return Math.min(now, ...[stamped, processStart].filter(inWindow));
}

/** The note for a raw payload (anything not JSON yields a note with the event alone). */
export function noteOf(id: string, event: string, payload: unknown, at: number): HookNote {
  const p = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const note: HookNote = { id, event: str(p.hook_event_name, 64) ?? event, at };
  // StopFailure carries `error` (its kind) and `error_details`, not `message`: kept as the message.
  const failure = [str(p.error, 200), str(p.error_details)].filter(Boolean).join(': ');
  const message = str(p.message) ?? (failure || undefined);
  if (message) note.message = message;
  const type = str(p.notification_type, 64);
  if (type) note.notificationType = type;
  const transcript = str(p.transcript_path, 4096);
  if (transcript) note.transcriptPath = transcript;
  // Claude Code and Gemini CLI say session_id; Codex's notify says thread-id (0.169.0: the session's id).
  const session = str(p.session_id, 128) ?? str(p['thread-id'], 128);
  if (session) note.sessionId = session;
  // Only the count is kept: the tasks' commands and descriptions are the worker's words.
  if (Array.isArray(p.background_tasks)) note.backgroundTasks = Math.min(p.background_tasks.length, MAX_BACKGROUND_TASKS);
  return note;
}

/** A count beyond this says nothing more (a worker's payload is untrusted input). */
const MAX_BACKGROUND_TASKS = 999;

/** A note read back from the wire or the queue, or null when it is not one. Only known fields, each cut to its cap. */
export function parseNote(v: unknown): HookNote | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.id !== 'string' || typeof o.event !== 'string' || typeof o.at !== 'number' || !Number.isFinite(o.at)) return null;
  const note: HookNote = { id: o.id.slice(0, NOTE_FIELD_CAPS.id), event: o.event.slice(0, NOTE_FIELD_CAPS.event), at: o.at };
  for (const k of ['message', 'notificationType', 'transcriptPath', 'sessionId', 'cap'] as const) {
    if (typeof o[k] === 'string') note[k] = (o[k] as string).slice(0, NOTE_FIELD_CAPS[k]);
  }
  if (typeof o.backgroundTasks === 'number' && Number.isInteger(o.backgroundTasks) && o.backgroundTasks >= 0) note.backgroundTasks = Math.min(o.backgroundTasks, MAX_BACKGROUND_TASKS);
  return note;
}
