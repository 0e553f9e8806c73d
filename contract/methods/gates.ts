/**
 * The gates and what follows a worker's turn (land, approve, reject, landings, discard,
 * relaunch), and the Hand's read-only views (survey, audience, the review page's URL), on the wire.
 */

import type { Cost, ResumeStanding } from './sessions.ts';
import type { AgentName } from '../vocabulary.ts';
import type { StateKind, StepKind } from '../state-words.ts';
import type { LandingAgentSettings } from './agent-settings.ts';
import type { BrowserChecksVerdict } from '../browser-checks.ts';
import type { OverlapPair } from './fleet.ts';

export interface LandParams {
  id: string;
  /** The caller's PATH: gh and no-mistakes are looked up with it. */
  path?: string;
  /**
   * The person's explicit word on what the landing changes in the repository's own agent
   * settings (`--accept-agent-settings`): counts where `land` itself lands (a yolo project);
   * at a gate it is given at `approve`. The Hand's MCP tools never send it.
   */
  acceptAgentSettings?: boolean;
  /**
   * The person's word to rebase the worker's branch onto the base that moved on since it was cut
   * (`--rebase`, issue 40): done in its worktree when the branch applies cleanly, never a merge
   * commit and nothing forced; refused with the conflicting files otherwise.
   */
  rebase?: boolean;
}

/** What a landing showed the person: the branch against its base. */
export interface LandingEvidence {
  base: string;
  branch: string;
  verdict: string;
  diffStat: string;
  log: string;
  commits: number;
  /** What it changes in the repository's own agent settings (absent: a gate opened before kingshand read them). */
  agentSettings?: LandingAgentSettings;
  /** The worker's browser checks, judged from its record (issue 40); absent when its brief asks for none. */
  browserChecks?: BrowserChecksVerdict;
}

/**
 * What the landing did, per posture (a merge's commit, a PR's URL and whether it was pushed, a gate
 * run's id): the landing port's own fields, beside the posture it landed under.
 */
export type LandedDetail = { posture: string } & { readonly [field: string]: unknown };

export type Teardown = { done: true; steps: string[] } | { done: false; reason: string };

/** Where a landing ended: landed (and torn down, or why not). */
export interface LandingOutcome {
  id: string;
  gate: 'skipped-yolo' | 'approved';
  stage: string;
  landed?: LandedDetail;
  teardown: Teardown;
  evidence: LandingEvidence;
}

/** The landing gate is open: nothing went out; the person approves or rejects. */
export interface LandingGateOpen {
  id: string;
  gate: 'open';
  stage: string;
  waitingFor: string;
  posture: string;
  evidence: LandingEvidence;
  gateRun?: { runId: string | null; outcome: string | null; detail: string; releasedByApproval: string };
}

export type LandResult = LandingOutcome | LandingGateOpen;

/** `acceptAgentSettings`: the person's explicit word on the landing's agent-settings changes (`--accept-agent-settings`). */
export interface ApproveParams { id: string; path?: string; acceptAgentSettings?: boolean }

/** What exists after a brief approval (bounded wait for the pane), never what was only asked for. */
export interface CreatedAfterApproval {
  stage?: string;
  worktree?: string | null;
  branch?: string | null;
  pane?: string | null;
  problem?: string | null;
  stillPreparing?: true;
}

export interface BriefApproved { id: string; gate: 'brief-approved'; stage: string; worktree: string; branch: string; created: CreatedAfterApproval }
export type ApproveResult = LandingOutcome | BriefApproved;

/** A backlog item given back to the queue (its worker will never do it). */
export interface RequeuedItem { id: string; state: 'queued' }

export interface RejectParams { id: string; reason: string }
export interface RejectResult { id: string; gate: 'rejected'; stage: string; reason: string; item?: RequeuedItem }

export interface LandingRow extends LandingEvidence { id: string; openedAt: string; posture: string; waitingFor: string }

export interface DiscardParams { id?: string; allFinished?: boolean; deleteBranch?: boolean; discardCommits?: boolean; forget?: boolean }
export interface DiscardedWorker {
  id: string;
  stage: string;
  worktree: 'removed' | 'absent' | 'left-on-disk';
  pane: 'closed' | 'none';
  branch: 'kept' | 'deleted' | 'absent';
  branchName: string;
  archivedTo: string | null;
  /** With --forget: what is still on disk, for the person to remove. */
  leftBehind?: string[];
  item?: RequeuedItem;
}
/** `hand close <id>`: a read-only worker's close-out (counsel); `force`: without a report, or while it works. */
export interface CloseParams { id: string; force?: boolean }
export type CloseResult = DiscardedWorker & { closed: true; reportArchived: string | null; itemDone?: { id: string; state: 'done' } };
export interface DiscardRefusal { id: string; code: string; message: string }
export interface DiscardAll { all: true; discarded: DiscardedWorker[]; refused: DiscardRefusal[] }
export type DiscardResult = DiscardedWorker | DiscardAll;

/**
 * `note`: the person's words. `noteFile`: a file to read them from (`--note <file>`), read by the
 * daemon under the read-path checks (denied places, credentials by place, inode and shape, /proc,
 * /sys, /dev, regular files only) before anything is done.
 */
export interface RelaunchParams {
  id: string; note?: string; noteFile?: string; force?: boolean; stallMs?: number; env?: Record<string, string>; envAdd?: Record<string, string>;
  /** Continue the worker's own conversation (its agent session, proved to be its) instead of a fresh session with a progress note (issue 41). */
  resume?: boolean;
}
export interface RelaunchResult {
  id: string;
  stoppedFrom: string;
  /** The previous report's text (capped), or null: none, or refused (then previousReportRefused says why). */
  previousReport: string | null;
  /** `refused: report.md is a symbolic link, …`: a previous report the daemon would not read, and why. */
  previousReportRefused: string | null;
  progressNotePath: string;
  firstPrompt: string;
  worktree: string;
  branch: string;
  stage: string;
  /** The agent session continued (`--resume`), or null for a fresh session. */
  resumedSession: string | null;
}

/**
 * `login`: also a new private sign-in file for a browser the CLI starts (its path: the one-time
 * code is inside, 0600, never in an argv). `signOutAll`: end every page session and void every
 * outstanding sign-in file first.
 */
export interface ReviewParams {
  login?: boolean;
  signOutAll?: boolean;
  /** A worker's id: `url` (and the sign-in file of `login`) opens that worker's page. */
  id?: string;
}
export interface ReviewResult {
  /** The link to open: it signs in and lands on the fleet page, or on the worker's page with `id`. */
  url: string;
  /** The worker whose page `url` opens, when one was asked for. */
  worker?: string;
  host: string;
  port: number;
  /** With `login`: the 0600 file to hand the browser (as a file:// URL). */
  loginFile?: string;
  /** With `signOutAll`: how many sessions ended and how many sign-in files were voided. */
  signedOut?: { sessions: number; codes: number };
}

export interface SurveyWorker {
  id: string;
  project: string;
  /** The agent CLI and the version read at dispatch (null: could not tell). */
  agent: string;
  agentVersion: string | null;
  /** Where it runs: `local` or a host's name (issue 28). */
  host: string;
  stage: string;
  /** conditionOf, with 'working' for a busy worker. */
  condition: string;
  live: boolean | null;
  gate: string | null;
  waitingOn: string | null;
  question: string | null;
  options: string[];
  reportPath: string;
  reportExists: boolean;
  lastActivity: string;
  /** Its cost from its agent's session records (null: none read, or the survey was built without them). */
  cost?: Cost | null;
  /** A gone worker: whether its conversation can be resumed, or why not (issue 41). */
  resume?: ResumeStanding | null;
}

/** What the fleet spent today, and each project against its budget (issue 41). */
export interface SurveyCost {
  today: string;
  total: Cost;
  projects: { project: string; usd: number | null; unpriced: string[]; budgetUsd: number | null }[];
}

export interface SurveyItem { id: string; kind: string; text: string }
export interface AwayBrief { active: boolean; since: string | null; note: string | null }

export interface Survey {
  contract: 'hand-survey.v1';
  generatedAt: string;
  /** defaultAgent: what a dispatch without --agent runs (null = claude). */
  projects: { name: string; repo: string; posture: string; yolo: boolean; defaultAgent: AgentName | null; pathExists: boolean }[];
  workers: SurveyWorker[];
  needsYou: SurveyItem[];
  recentlyLanded: SurveyItem[];
  underway: SurveyItem[];
  next: SurveyItem[];
  /** Live workers of one repository whose branches touch the same files (issue 40). */
  overlaps: OverlapPair[];
  /** Away mode (null when the survey was built without the work stores). */
  away: AwayBrief | null;
  /** The Claude Code version workers get against the reader's corpus, and missing prerequisites (null without the daemon's environment). */
  setup: SetupFacts | null;
  /** Today's cost (null when the survey was built without the session records). */
  cost?: SurveyCost | null;
  diagnostics: string[];
}

import type { CalibrationStanding } from './calibration.ts';

/** Where the Claude Code workers will run stands against the screen reader's corpus (io/agent/setup-facts.ts). */
export interface ClaudeStanding {
  version: string | null;
  binary: string | null;
  /** in-corpus: scored on this exact version; between: read with the nearest older one; newer: past the corpus. */
  standing: 'in-corpus' | 'between' | 'newer' | 'older' | 'unknown-version' | 'missing';
  /** The corpus version its screens are read with (null when there is no binary or no version). */
  readWith: string | null;
  /** One line for the digest and the survey. */
  line: string;
}

export interface MissingPrerequisite {
  name: 'git' | 'tmux' | 'claude';
  detail: string;
  fix: string;
}

export interface SetupFacts {
  claude: ClaudeStanding;
  missing: MissingPrerequisite[];
  /**
   * Each installed agent against the version it was last calibrated at (issue 39): absent or
   * empty where the state directory was not asked (facts read without a daemon's home).
   */
  calibration?: CalibrationStanding[];
}

/** A state a worker came to, or a step of its story (contract/state-words.ts). */
export type AudienceKind = StateKind | StepKind;
export interface AudienceEvent {
  kind: AudienceKind;
  /** The kind in words: a state's are the review page's badge (contract/state-words.ts). */
  words: string;
  at: string;
  stage: string;
  /** How many journal rows this one line stands for (repeats are folded). */
  count: number;
}
export interface AudienceParams { /** Epoch milliseconds. */ since: number }
export interface Audience {
  contract: 'hand-audience.v1';
  since: string;
  until: string;
  workers: { id: string; events: AudienceEvent[] }[];
}

