/**
 * The fleet's core methods on the wire: what the client sends (…Params) and what the daemon
 * answers (…Result). The daemon's handlers are typed against these, so a field added to an answer
 * here reaches the CLI, the MCP server and the page with the compiler checking every reader.
 */
import type { RepoAgentSettings } from './agent-settings.ts';
import type { AgentName, BackendName, Condition, PermissionPosture, Posture, Until, WaitReason } from '../vocabulary.ts';
import type { AgentState, BlockedReason, DialogReading } from '../screen-reading.ts';
import type { HookNote } from '../hook-note.ts';

/** Nothing to send. */
export type NoParams = Record<never, never>;

export type { PermissionPosture };

export interface ProjectRecord {
  name: string;
  /** Real path of the repository's top-level work tree. */
  repo: string;
  posture: Posture;
  yolo: boolean;
  registeredAt: number;
  /** Permission posture of its workers; absent = 'off'. */
  permissions?: PermissionPosture;
  /** The agent a dispatch without --agent runs; null/absent = claude (issue 27). */
  defaultAgent?: AgentName | null;
  /** What its workers may spend a day (USD at the price table); dispatch refuses beyond it, warns from 80 % (issue 41). Absent: no budget. */
  budgetUsdPerDay?: number;
  /** 'auto': its lost workers are resumed when the daemon finds them lost (a restart after a reboot); absent: the person says (hand resume). */
  resumeLost?: 'auto';
}

/** Why the state database does not take writes now (persistence/commit-queue.ts): null while it does. */
export interface StoreHealth {
  trouble: 'locked' | 'full';
  /** When the first commit that could not be written was made (ms since the epoch). */
  since: number;
  /** Transitions waiting in memory, in order. */
  pending: number;
  /** The database's own words for the last failure. */
  detail: string;
}
export interface PingResult { pid: number; home: string; socket: string; uptimeMs: number; workers: number; store: StoreHealth | null }

export interface ShutdownResult {
  stopping: true;
  pid: number;
  liveWorkers: string[];
  gateHeldWorkers: string[];
  tmuxServer: 'kept' | 'stopped';
  advice: string | null;
}

/** `permissions` absent keeps a registered project's posture ('off' for a new one). */
/** `agent` absent keeps a registered project's default agent (none for a new one: claude). */
export interface AnnexParams { repo: string; name?: string; posture?: Posture; yolo?: boolean; permissions?: PermissionPosture; agent?: AgentName; env?: Record<string, string> }
/** `agentSettings`: what the repository's base branch already makes an agent run or allows (issue 37), quoted as its content. */
export type AnnexResult = ProjectRecord & { updated: boolean; agentSettings: RepoAgentSettings };

/** What `annex` would register, proposed before anything is written (hand annex --propose). */
export interface AnnexProposeParams { repo: string; env?: Record<string, string> }
export interface AnnexProposal {
  repo: string;
  /** The name annex would give it (the folder's), and whether it is free. */
  name: string;
  nameFree: boolean;
  /** Already registered (as this name): annex would update it. */
  registeredAs: string | null;
  origin: string | null;
  posture: Posture;
  yolo: false;
  why: string;
  /** Each posture: whether it can be registered now, and the refusal and fix when not. */
  options: { posture: Posture; ready: boolean; problem: string | null; fix: string | null }[];
}

/** `permissions`, `agent` and `acceptBase` all absent is refused (nothing to change); acceptBase with either of the others too. */
export interface ProjectSetParams {
  name: string; permissions?: PermissionPosture; agent?: AgentName; acceptBase?: boolean;
  /** `--budget 20usd/day`: USD its workers may spend a day; null (`--budget none`) removes it (issue 41). */
  budgetUsdPerDay?: number | null;
  /** `--resume-lost auto|ask`: whether its lost workers are resumed by themselves when the daemon finds them lost. */
  resumeLost?: 'ask' | 'auto';
}
/** `--accept-base`: the base tips now recorded as the person's own (a move outside a landing accepted). */
export type AcceptBaseResult = ProjectRecord & {
  /** `host`: the far host whose checkout this base is in (absent: this machine). */
  acceptedBase: { branch: string; from: string | null; to: string; host?: string }[];
  describe: string;
};
export type ProjectSetResult = AcceptBaseResult | PermissionsSetResult;
export type PermissionsSetResult = ProjectRecord & {
  permissions: PermissionPosture;
  previous: PermissionPosture;
  changed: boolean;
  describe: string;
  /** The posture running workers still have (they keep the settings they started with), or null when none run. */
  runningUnder: PermissionPosture | null;
  running: string[];
  /** The default agent as it was and as it is now (`agent` given), or null when it was not asked to change. */
  defaultAgentChange: { previous: AgentName | null; now: AgentName; changed: boolean } | null;
};

/** Why a dispatch runs the agent it runs: its --agent, its project's default, or claude when neither names one. */
export type AgentChosenBy = 'flag' | 'project-default' | 'built-in-default';

export interface DispatchParams {
  /** With `item`, the item's id and project stand in for id, repo and brief. */
  id?: string;
  item?: string;
  repo?: string;
  brief?: string;
  readPaths?: string[];
  agent?: AgentName;
  backend?: BackendName;
  stallMs?: number;
  unclassifiedMs?: number;
  /** The caller's environment (the worker runs with it, through the allow-list). */
  env?: Record<string, string>;
  envAdd?: Record<string, string>;
  taskKind?: string;
  workspace?: string;
  /** A host from `hand host list`; absent = the project's default host, else local. */
  host?: string;
  /** `--quick` (parley): no review gate runs; the brief and the landing carry the quick marker, and a pull request is opened as a draft. */
  quick?: boolean;
  /** `--read-only` (counsel): the worker reads and reports; its worktree is read-only in the sandbox, nothing lands, `hand close` ends it. */
  readOnly?: boolean;
  /** `--strict`: refuse an agent whose installed version failed its calibration (issue 39); without it, a warning. */
  strict?: boolean;
}

/** Intent fields of a worker: what we asked for. Liveness comes from the host, state from the actor (persisted as is). */
export interface WorkerIntent {
  id: string;
  project: string;
  repo: string;
  worktree: string;
  branch: string;
  base: string;
  backend: BackendName;
  agent: string;
  /** `claude --version` at dispatch (e.g. `2.1.332`); null/absent when unknown or not Claude Code. */
  agentVersion?: string | null;
  /** The daemon's copies of the brief and the report (a far worker's report is read back into it). */
  briefPath: string;
  reportPath: string;
  createdAt: number;
  /**
   * The host the worker runs on (issue 28); absent = `local`. On a far host repo and worktree
   * are paths there, and `farDir` is its brief directory there (brief.md and report.md).
   */
  host?: string;
  farDir?: string;
  /** The terminal server its pane was made on (tmux: `<pid>.<start time>`), when the host tells. */
  paneServer?: string;
  /** This launch continues the agent's session of this id (hand relaunch --resume), instead of starting one. */
  resumeSession?: string;
}

export interface DispatchResult extends Pick<WorkerIntent, 'id' | 'repo' | 'worktree' | 'branch' | 'base' | 'backend' | 'agent' | 'briefPath' | 'reportPath'> {
  /** Where it runs: `local` or a host's name. */
  host: string;
  stage: string;
  /** The read-first files copied beside the brief (never a silent copy). */
  copied: { source: string; copy: string }[];
  permissions: PermissionPosture;
  /** Why this agent: the dispatch's --agent, the project's default agent, or claude when neither named one. */
  agentChosenBy: AgentChosenBy;
  /** Rests at brief approval: only the brief directory exists yet. */
  gated: boolean;
  waitingFor?: 'brief approval';
  created?: { briefDirectory: boolean; worktree: boolean; branch: boolean; pane: boolean };
  briefHead?: string[];
  /** How a review-gated project's work ships (delivery.json beside the brief), or null. */
  delivery: Delivery | null;
  /** How the agent's ~/.claude.json trust seed is planned (null for an agent without one). */
  seeded: { claudeJson: string; created: boolean; says: string } | null;
  /** Names of the caller's variables the allow-list kept from the worker. */
  envLeftOut: string[];
  /** What the project's permission posture asks that this agent cannot do (absent: all of it). */
  postureGap?: string;
  /**
   * The agent as installed here failed its last calibration (issue 39): the line that names the
   * misread situations; said again in `warnings`. Absent when it passed or was not calibrated.
   */
  calibration?: string;
  /** The backlog item dispatched, when one was named. */
  item?: string;
  /** What the person should know that did not stop the dispatch: a usage reading that failed (fail open), an agent that failed its calibration. */
  warnings: string[];
}

export type HookWord = 'needs-input' | 'working' | 'idle' | 'ended' | 'failed';

import type { Cost, ResumeStanding } from './sessions.ts';

export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  /** Sum of costUSD where the transcript records it (older versions), else null. */
  costUSD: number | null;
  messages: number;
}

export interface HookWitness { event: string; word: HookWord | null; message: string | null; at: number }
export interface Dispute { screen: string; hook: HookWord; since: number }

/** How the work of a review-gated worker leaves its worktree. */
export type Ships = 'local-only' | 'direct-PR' | 'no-mistakes';

/** What dispatch decided about a review-gated worker's delivery, recorded beside its brief. */
export interface Delivery {
  ships: Ships;
  taskKind: string | null;
  /** The repository's CI, looked at before dispatch: 'no-ci' skips the gate's CI step. */
  ci: { status: 'has-ci' | 'no-ci' | 'unknown'; signal: string; detail: string } | null;
  gateCommand: string | null;
  /** A quick dispatch (parley): no review gate ran; its pull request is a draft, never merged by kingshand. */
  quick?: boolean;
  /** A read-only dispatch (counsel): its report is the result; nothing lands; `hand close` ends it. */
  readOnly?: boolean;
}

/** What dispatch itself answers; the usage and item rules add `warnings` and `item`. */
export type DispatchAnswer = Omit<DispatchResult, 'warnings' | 'item'>;

/** The row `hand status` promises (a fixed, documented field set). */
export interface StatusRow {
  id: string;
  project: string;
  stage: string;
  state: AgentState;
  /**
   * Background work still running after the turn (the screen's count or the agent's Stop hook's,
   * issue 43): the worker is at work (`working (background: N tasks)`), never idle or finished;
   * null when none.
   */
  background: number | null;
  awaitingInput: boolean;
  blockedReason: BlockedReason | null;
  dialog: DialogReading | null;
  promptBox: string | null;
  readable: boolean;
  live: boolean | null;
  /** Why its screen cannot be read now (its terminal server did not answer within its bound), or null (issue 38 item 8). */
  couldNotTell: string | null;
  backend: BackendName;
  /** Where it runs: `local` or a host's name (issue 28). */
  host: string;
  agent: string;
  /** The agent's version read at dispatch (`0.169.0`, `2.1.332`); null when it could not tell. */
  agentVersion: string | null;
  reportPath: string;
  reportExists: boolean;
  /**
   * What went wrong that the machine recorded (a refused report — `report check: refused: report.md
   * is a symbolic link, …` — a failed report read, a failed launch), or null.
   */
  problem: string | null;
  lastActivity: string;
  updatedAt: string;
  stallAt: string | null;
  exitCode: number | null;
  waitingOn: string | null;
  workerSaid: string | null;
  gate: 'brief approval' | 'landing approval' | null;
  rejection: string | null;
  condition: Condition;
  worktreeMissing: boolean;
  hook: HookWitness | null;
  hookReason: string | null;
  disputed: Dispute | null;
  tokens: TokenUsage | null;
  /** The agent session of its current launch, proved to be its (issue 41), or null. */
  session: string | null;
  /** A gone worker: whether its conversation can be resumed (hand relaunch --resume), or why not; null while it runs. */
  resume: ResumeStanding | null;
  /** What it spent, from its agent's session records at the price table (null: nothing read yet, or its agent keeps none). */
  cost: Cost | null;
  /**
   * Other live workers of the same repository whose branches touch some of the same files
   * (issue 40): the second of them to land will need a rebase. Absent when there are none.
   */
  overlaps?: Overlap[];
  /**
   * Its repository's files were still being read when this status was answered (hundreds of live
   * workers in one repository, or just after a restart): an overlap of its may not be said yet; the
   * next status has it. Absent otherwise.
   */
  overlapsUnread?: true;
  /** Dispatched read-only (counsel): nothing lands; `hand close` ends it. Absent otherwise. */
  readOnly?: boolean;
}

/** Another live worker of the same repository touching some of the same files: up to five named, `count` in all. */
export interface Overlap { with: string; files: string[]; count: number }
/** An overlap once per pair (survey, the digest). */
export interface OverlapPair { workers: [string, string]; files: string[]; count: number }
/** How every face says a worker at background work: `working (background: 2 tasks)`. */
export function backgroundWords(n: number): string {
  return `working (background: ${n} task${n === 1 ? '' : 's'})`;
}

export interface DecisionBrief { key: string; state: 'open' | 'answered' | 'declined'; question: string; delivery: 'pending' | 'sent' | null }

/** `hand status`: the row, the project's posture, the worker's backlog item and latest decision. */
export type WorkerStatus = StatusRow & { permissions: PermissionPosture; item: string | null; decision: DecisionBrief | null };

export interface StatusParams { id?: string }

export interface WaitParams { id: string; until?: Until; timeoutMs?: number }
export interface WaitProgress { stage: string; state: AgentState; lastActivity: string; readable: boolean }
export interface WaitReport {
  id: string;
  reason: WaitReason;
  /** true when the awaited condition happened (exit 0). */
  met: boolean;
  stage: string;
  state: AgentState;
  awaitingInput: boolean;
  /** The screen's reason, or 'gate' when the worker waits at a gate. */
  blockedReason: string | null;
  dialog: DialogReading | null | undefined;
  promptBox: string | null;
  readable: boolean;
  /** Why its screen cannot be read now (its terminal server did not answer within its bound), or null. */
  couldNotTell: string | null;
  lastActivity: string;
  quietMs: number | null;
  waitedMs: number;
  /**
   * A blocked worker's question and options (not at a gate), lifted once (io/screen/asked.ts) and
   * quoted as the worker's words — the same words `watch --needs-you`, survey and the page quote.
   */
  question?: string | null;
  options?: string[];
}

/**
 * What wakes the Hand (issue 38): everything the digest and survey count as waiting on the person.
 * `done`: finished with its report, its landing the person's next step. A landing that already
 * happened is news for `hand audience`, never a need.
 */
export type NeedKind = 'blocked' | 'gate' | 'parked' | 'stalled' | 'unclassified' | 'wait-failed' | 'disputed' | 'agent-error' | 'crashed' | 'done';

export interface NeedsYouEvent {
  worker: string;
  project: string;
  /** A worker's need, a base branch moved outside a landing, or the person annotated a worker's review (issue 40): not any one worker's state. */
  need: NeedKind | 'base-moved' | 'annotated';
  /** One line for a person (and for the Hand's session), the worker's words quoted. */
  line: string;
  question: string | null;
  options: string[];
  /** The dialog's fingerprint, for `hand answer` (null when no dialog was read). */
  fingerprint: string | null;
  command: string;
  at: string;
}

export interface WatchParams { timeoutMs?: number; needsYou?: boolean }
/** Every view change (a status row), or with needsYou one event per need. */
export type WatchProgress = StatusRow | NeedsYouEvent;
export type WatchResult = StatusRow[] | { sent: number; pending: NeedsYouEvent[] };

export interface ReadParams { id: string; scrollback?: number }
export interface ReportParams { id: string }
/**
 * A worker's report as the daemon reads it (issue 38 item 2): read as a stranger's file (never
 * through a link, capped), its text quoted and attributed. `state`: what was found at its path.
 */
export interface ReportResult {
  id: string;
  path: string;
  state: 'read' | 'absent' | 'refused';
  /** The report behind its heading and gutter (contract/worker-words.ts quoteReport); null unless read. */
  text: string | null;
  truncated: boolean;
  /** Why it was not read (a link, a FIFO, …); null unless refused. */
  refused: string | null;
}
export interface ReadResult { id: string; text: string; source: 'scrollback' | 'visible'; stage: string; state: AgentState; dialog: DialogReading | null }

export interface SendParams { id: string; text: string; allowNonEmptyBox?: boolean }
export interface SendResult { id: string; sent: true; stage: string; state: AgentState; confirmed: boolean }

/** `key`: one key's name (enter, escape, down, …) or one character. */
export interface KeysParams { id: string; key: string; allowNonEmptyBox?: boolean }
export interface KeysResult { id: string; key: string; stage: string; state: AgentState; awaitingInput: boolean; promptBox: string | null }

export interface AnswerParams { id: string; option: number; fingerprint: string }
export interface AnswerResult {
  id: string;
  option: number;
  label: string;
  keys: string[];
  /** The option takes typed text: its field is live now and `hand send` writes the answer. */
  textField: boolean;
  stage: string;
  state: AgentState;
  dialog: DialogReading | null;
  message: string;
}

export interface StopParams { id: string; timeoutMs?: number; force?: boolean }
export interface StopResult { id: string; stage: string; exitCode: number | null; paneReusable: boolean; condition: Exclude<WaitReason, 'timeout'> | null }

export interface HookParams { note: HookNote }
export interface HookResult { id: string; condition: Condition; hookReason: string | null; disputed: Dispute | null }
