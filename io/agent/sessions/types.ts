/**
 * An agent's own record of one conversation (its session file), as kingshand reads it: which
 * session it is, which directory it ran in, and what it spent. Every agent CLI kingshand runs keeps
 * one on disk and resumes it by id (Claude Code `--resume <id>`, Codex `resume <id>`, Gemini CLI
 * `--resume <id>`); each agent's format is one file here (claude.ts, codex.ts, gemini.ts).
 *
 * The file is the worker's (its agent writes it, in the worker's own config directory): it is read
 * as a stranger's (io/fs/untrusted-file.ts: never through a link, capped, bounded in time), only
 * its numbers and identifiers are kept, and nothing in it is ever typed back anywhere.
 */

/** What one session file says about itself, from its first records. */
export interface SessionIdentity {
  sessionId: string;
  /** The directory the session ran in, as the agent recorded it (null when its format records none). */
  cwd: string | null;
  /** Gemini CLI records a hash of its project root instead of the directory (sha256 hex). */
  projectHash?: string;
}

/** A session proved to be one worker's, or why it is not. */
export type SessionProof =
  | { ok: true; sessionId: string; file: string }
  | { ok: false; why: SessionProblem; detail: string };

/**
 * missing: no session file (none recorded, or the recorded one is gone);
 * truncated: the file ends in the middle of a record, or holds no conversation;
 * another-worktree: it ran in another directory, or names another session than its name says;
 * refused: the file is a link, not a regular file, someone else's, or unreadable (io/fs/untrusted-file.ts);
 * cannot-resume: the agent has no resume by id.
 */
export type SessionProblem = 'missing' | 'truncated' | 'another-worktree' | 'refused' | 'cannot-resume';

/** Tokens of one kind of use, as an agent's record counts them. */
export interface TokenCounts {
  /** Prompt tokens read at the full price (cache reads and writes not included). */
  input: number;
  output: number;
  cacheRead: number;
  /** Prompt tokens written to the cache (priced above plain input). */
  cacheWrite: number;
  /** Of those, written with Claude's 1-hour lifetime (priced higher again), where the record tells. */
  cacheWrite1h: number;
  /** Model replies counted (API messages, not lines of the file). */
  messages: number;
}

/** One usage record: whose model, which day (the daemon's local date, YYYY-MM-DD), how much. */
export interface UsageRecord {
  model: string;
  day: string;
  counts: Omit<TokenCounts, 'messages'>;
  /**
   * The record's key inside its file, when the agent may write the same reply again (a Claude Code
   * reply is one line per content block; a Gemini CLI message is written again when its tokens
   * arrive): a later record of the same key replaces the earlier.
   */
  key?: string;
}

/** What the reader of one line found. */
export type LineUsage = UsageRecord | 'none' | 'malformed';

/**
 * One agent's session format. `candidates` lists session files under the worker's config
 * directory (newest first, bounded); `identity` reads a file's head; `usage` reads one whole line.
 */
export interface SessionFormat {
  /** The agent's name for messages ("Claude Code"). */
  readonly label: string;
  /** Session files under `configDir`, newest first, at most `max` (the likeliest place first: `cwd`'s own directory). */
  candidates(configDir: string, cwd: string, max: number): Promise<string[]>;
  /** The session a file's first records name, or null when they name none. */
  identity(head: string, file: string): SessionIdentity | null;
  /** Whether the identity says the session ran in `worktree`. */
  ranIn(identity: SessionIdentity, worktree: string): boolean;
  /**
   * A reader of one line's usage. Stateful per file (Codex counts cumulatively and names its model
   * in an earlier line): make one per file and feed it the lines in order.
   */
  usageReader(): (line: string) => LineUsage;
}

/** The date a record's ISO time falls on, in the daemon's time zone (a budget is per day of the person's). */
export function dayOf(iso: unknown, fallback: number): string {
  const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
  const d = new Date(Number.isFinite(t) ? t : fallback);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A count as the record gives it: a finite number ≥ 0, else 0 (never NaN in a total). */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** Whether `v` is a record (an object, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
