/**
 * Issue 41 on the wire: a worker's agent session and whether a gone worker's conversation can be
 * resumed (`hand relaunch --resume`, `hand resume --all-lost`), and what each worker, project and
 * day has spent (`hand cost`, the cost columns of status, the page, the digest and survey).
 */

/** One model's share of a cost: its tokens, and its USD at the price table (null: the table has no price for it). */
export interface CostLine {
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  messages: number;
  usd: number | null;
}

/** What some work spent, read from the agents' own session records. */
export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  messages: number;
  /** USD of the models the price table has; null when it has none of them. */
  usd: number | null;
  /** Models whose tokens have no price: their share of the cost is unknown, never guessed. */
  unpriced: string[];
  byModel: CostLine[];
}

/** A gone worker's conversation: resumable, or why not (missing, truncated, another worktree, …). */
export interface ResumeStanding {
  can: boolean;
  /** The session it would continue. */
  session: string | null;
  /** Why not, in a person's words (null when it can). */
  why: string | null;
}

export interface ResumeParams {
  /** Workers to resume (each must be gone); absent with allLost: every lost worker. */
  ids?: string[];
  allLost?: boolean;
  env?: Record<string, string>;
  envAdd?: Record<string, string>;
}

export interface ResumedWorker {
  id: string;
  session: string;
  stage: string;
  /** The one line typed in (what happened), nothing else. */
  typed: string;
}

export interface ResumeResult {
  resumed: ResumedWorker[];
  /** Each worker not resumed, why, and the fresh relaunch that remains. */
  refused: { id: string; code: string; why: string; instead: string }[];
}

export interface CostParams {
  /** How many days back, today included (default 7). */
  days?: number;
}

export interface ProjectDayCost extends Cost {
  project: string;
  day: string;
  /** The project's daily budget (USD), or null. */
  budgetUsd: number | null;
}

export interface CostResult {
  /** The daemon's date today (YYYY-MM-DD): a budget is per day of it. */
  today: string;
  /** Every worker with a cost, its own (a re-used id's earlier work is its project's, not its). */
  workers: ({ id: string; project: string } & Cost)[];
  /** Per project and day, newest first. */
  projectDays: ProjectDayCost[];
  /** Today across the fleet. */
  todayTotal: Cost;
  /** The price table: when it was read and from where (io/agent/price-table.ts). */
  prices: { read: string; sources: string[] };
}
