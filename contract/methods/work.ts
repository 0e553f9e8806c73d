/**
 * The work that outlives a conversation on the wire: backlog items, held decisions, away mode
 * and its journal, notification targets, the usage pulse and the digest's summary.
 */
import type { HoldKind } from '../vocabulary.ts';

export type ItemState = 'queued' | 'in-flight' | 'done' | 'dropped';

export interface BacklogItem {
  id: string;
  project: string;
  title: string;
  brief: string | null;
  state: ItemState;
  hold: { reason: string; kind: HoldKind } | null;
  blockedBy: string[];
  /** Blockers not yet done (what keeps it out of `ready`). */
  waitingOn: string[];
  worker: string | null;
  pr: string | null;
  note: string | null;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}

/** An item as the wire shows it: times as ISO text, and whether it is held or ready. */
export type ItemRow = Omit<BacklogItem, 'createdAt' | 'updatedAt' | 'closedAt'> & { held: boolean; ready: boolean; createdAt: string; updatedAt: string; closedAt: string | null };

export interface ItemIdParams { id: string }
export interface BacklogAddParams { id: string; project: string; title: string; brief?: string | null }
export interface BacklogListParams { state?: string }
export interface BacklogHoldParams { id: string; reason: string; kind: HoldKind }
export interface BacklogBlockParams { id: string; by: string }
export interface BacklogDoneParams { id: string; pr?: string; note?: string }
export type BacklogDoneResult = ItemRow & { released: string[] };

export type DecisionState = 'open' | 'answered' | 'declined';

export interface Decision {
  key: string;
  worker: string;
  project: string | null;
  question: string;
  options: string[];
  openedAt: number;
  state: DecisionState;
  answer: string | null;
  closedAt: number | null;
  /** For an answer: 'sent' once typed into the worker, 'pending' while it waits for a live session. */
  delivery: 'pending' | 'sent' | null;
  deliveredAt: number | null;
  /**
   * What a delivery after a daemon's restart found of this answer in the worker's pane (issue 43),
   * null for an ordinary delivery: 'entered' (typed and marked, its Enter pressed once),
   * 'found-sent' (marked and gone: not typed again), 'rolled-back' (typed, never submitted:
   * cleared and typed again whole; still pending if the new typing has not gone through).
   */
  recovery: 'entered' | 'found-sent' | 'rolled-back' | null;
}

/** What a decision's record says of a delivery finished after a restart (actors/decision-resume.ts). */
export const RECOVERY_WORDS: Record<NonNullable<Decision['recovery']>, string> = {
  entered: 'found typed and marked after a restart: its Enter pressed once',
  'found-sent': 'found submitted after a restart (marked, box empty): not typed again',
  'rolled-back': 'found typed but never submitted after a restart: the box was cleared and the answer typed again whole',
};

export type DecisionRow = Omit<Decision, 'openedAt' | 'closedAt'> & { said: string; openedAt: string; closedAt: string | null };

export interface DecisionsParams { all?: boolean }
export interface DecideParams { key: string; answer?: string; declined?: string }
export interface DecideResult {
  key: string;
  state: DecisionState;
  worker: string;
  answer: string | null;
  /** sent: typed into the live worker; relaunched: carried by a relaunch; pending: waits; null: declined. */
  delivery: 'sent' | 'relaunched' | 'pending' | null;
  relaunch?: { progressNotePath: string; stage: string };
  why?: string;
  refused?: string;
  message: string;
}

export const JOURNAL_KINDS = ['away-on', 'away-off', 'landed', 'settled', 'done', 'blocked', 'gate', 'decision', 'decided', 'crashed', 'stalled', 'note', 'base-moved'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

export interface JournalBody {
  kind: JournalKind;
  text: string;
  worker?: string;
  project?: string;
  /** The question a blocked or parked worker asks: stored as read, quoted on the wire (`worker w1 wrote: "…"`). */
  question?: string;
  decision?: string;
  pr?: string;
}

export type JournalRead =
  | ({ seq: number; at: number; damaged: false } & JournalBody)
  | { seq: number; at: number; damaged: true; problem: string };

/** A journal entry as the wire shows it (its time as ISO text); still either whole or damaged. */
export type JournalRow = JournalRead extends infer E ? (E extends JournalRead ? Omit<E, 'at'> & { at: string } : never) : never;

export interface AwayAccount {
  since: string | null;
  note: string | null;
  summary: string;
  count: number;
  landed: { worker?: string; text: string; pr?: string }[];
  /**
   * Everything that waits on the person now — blocked before or during the absence, a gate, a
   * stall, an error, a crash — each as the wake says it, its question quoted (issue 38 item 4).
   */
  waitingOnYou: { worker?: string; text: string; question?: string; decision?: string; command?: string }[];
  /** Finished with a report: the landing is the person's next step. */
  readyToLand: { worker: string; text: string; command: string }[];
  /** `said`: the question quoted and attributed, as `decisions` gives it. */
  decisions: { key: string; worker: string; question: string; said: string; options: string[]; openedAt: string }[];
  broke: { worker?: string; text: string }[];
  /** lastActivity: the screen's last lines, quoted (`worker w1 wrote: "…"`, '' when none). */
  stillRunning: { worker: string; stage: string; state: string; lastActivity: string }[];
  damaged: { seq: number; problem: string }[];
  entries: JournalRead[];
}

export interface AfkOnParams { note?: string }
export interface AfkOnResult { away: true; since: string; note: string | null; refreshed: boolean; unreadable: string[] }
export interface AfkOffResult { away: false; wasAway: boolean; account: AwayAccount }
export interface AfkStatusResult { away: boolean; since: string | null; note: string | null; unread: number }
/** An ISO time, or a span back from now. */
export interface JournalParams { since?: string; sinceMs?: number }

export interface PublicTarget { id: string; kind: 'ntfy' | 'webhook' | 'command'; where: string; addedAt: string }
export interface TargetProblem { targetId: string; count: number; lastError: string | null }
export interface NotifyAddParams { kind: string; args?: string[]; allowLoopback?: boolean }
export type NotifyAddResult = PublicTarget & { added: boolean };
export type NotifyListRow = PublicTarget & { failing: TargetProblem | null };
export interface NotifyRemoveParams { id: string }
export type NotifyRemoveResult = PublicTarget & { removed: true };
export interface NotifyTestParams { id?: string }
export type NotifyTestRow = { id: string; kind: PublicTarget['kind'] } & ({ ok: true } | { ok: false; error: string });

/** A queued notification as stored (a row whose JSON no longer parses reads as {damaged: true}). */
export type StoredPayload = { readonly [field: string]: unknown };

export interface DeliveryRow {
  seq: number;
  eventKey: string;
  targetId: string;
  payload: StoredPayload;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: number;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface UsageWindow { id: string; window: 'session' | 'weekly'; percent: number; resetsAt: string | null }
export interface UsageReading {
  ok: boolean;
  /** The nearer window, or null when nothing was readable. */
  nearest: UsageWindow | null;
  windows: UsageWindow[];
  account: string | null;
  source: string | null;
  problem: string | null;
  /** Window ids that were neither the session nor the weekly window (ignored). */
  ignored: string[];
}
/** A usage limit a worker's agent met, in its own words (actors/usage/limit-seen.ts). */
export interface LimitSeen {
  worker: string;
  agent: string;
  /** The agent's message, as its screen or hook gave it (bounded). */
  said: string;
  /** The reset phrase within it, as written, or null. */
  resets: string | null;
  /** When the worker last changed (ISO time). */
  seenAt: string;
}
export type UsageResult = UsageReading & { line: string; refuseAt: number; limitsSeen: LimitSeen[] };
export interface UsageSourceParams { argv?: string[]; clear?: boolean }
export interface UsageSourceResult { source: string[] | null }

export interface WorkSummary {
  backlog: { queued: number; ready: number; inFlight: number; held: number; done: number };
  decisions: { key: string; worker: string; question: string; said: string }[];
  away: { active: boolean; since: string | null; note: string | null; unread: number };
  notify: { targets: number; failing: TargetProblem[] };
}

