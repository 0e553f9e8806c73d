/**
 * Types of the worker machine, kept apart so the wiring (actors/) and the machine share
 * one vocabulary without the wiring importing the machine's internals.
 */
import type { LandingAgentSettings } from '../contract/methods/agent-settings.ts';
import type { BrowserChecksVerdict } from '../contract/browser-checks.ts';
import type { DialogReading, ScreenReading } from '../contract/screen-reading.ts';
import type { Key } from '../contract/keys.ts';

import type { BackendName } from '../contract/vocabulary.ts';

export type WorkerBackend = BackendName;

/** What the fleet gives a worker when it spawns it. Plain data: it is persisted. */
export interface WorkerInput {
  id: string;
  backend: WorkerBackend;
  agent: string;
  reportPath: string;
  firstPrompt: string;
  /** Quiet time on a readable, unchanged screen before the worker counts as stalled. */
  stallMs: number;
  /** How long a readable screen may stay unclassified before a person is woken (default UNCLASSIFIED_MS). */
  unclassifiedMs?: number;
  /** Time of dispatch (ms since epoch, from the injected clock). */
  at: number;
  /**
   * The dispatch gate: true = nothing is created until a person approves the brief (the
   * project is not yolo). Decided by the daemon from the stored project, never guessed here.
   */
  briefGate?: boolean;
}

/** What a landing gate shows and what an approval covers (plain data: it is persisted). */
export interface LandingSummary {
  posture: string;
  base: string;
  branch: string;
  baseSha: string;
  /** The branch head the person saw; an approval covers exactly this commit. */
  headSha: string;
  verdict: string;
  diffStat: string;
  log: string;
  commits: number;
  openedAt: number;
  /** Who let it land: a person's `hand approve`, or the project's yolo flag. Null while waiting. */
  approvedBy: 'person' | 'yolo' | null;
  /**
   * What the landing changes in the repository's own agent settings (issue 37 item 3), read from
   * the commits; absent in a gate opened by an older kingshand (the landing port reads it again).
   */
  agentSettings?: LandingAgentSettings;
  /** The digest of the agent-settings changes the person's explicit word accepted (`--accept-agent-settings`). */
  agentSettingsAccepted?: string;
  /** The worker's browser checks, judged (issue 40); absent when its brief asks for none. */
  browserChecks?: BrowserChecksVerdict;
}

/** What the landing port did. `tearDown: false` = landed, but the worker must be kept. */
export interface LandingOutcome {
  posture: string;
  detail: Record<string, unknown>;
  tearDown: boolean;
  /** Why the worker is kept when tearDown is false. */
  keptBecause?: string;
  at: number;
}

export interface GateRejection {
  gate: 'brief' | 'landing';
  reason: string;
  at: number;
}

export interface LandingFailure {
  code: string;
  message: string;
  at: number;
}

/**
 * The worker's context: what it was given (WorkerInput, minus the dispatch time, which becomes
 * lastEventAt) plus what it has learnt. Every field is always present: a field added later comes
 * with a snapshot version bump and a migration (actors/snapshot-codec.ts), never as "absent in
 * older snapshots".
 */
export interface WorkerContext extends Omit<WorkerInput, 'at' | 'briefGate'> {
  /** Whether the brief waits for approval (the dispatch gate). */
  briefGate: boolean;
  paneId: string | null;
  /** The latest screen reading (null before the first one). Guards read this. */
  reading: ScreenReading | null;
  /** Time of the latest event that carried one. */
  lastEventAt: number;
  /** Fingerprint of the last READABLE screen; unreadable screens never move it. */
  fingerprint: string;
  lastChangeAt: number | null;
  /** Absolute deadline of the stall timer (survives restarts: it is context, not an `after`). */
  stallAt: number | null;
  /**
   * When the current spell of readable-but-unclassified screens reaches its bound (absolute);
   * null while the screen can be told.
   */
  unclassifiedAt: number | null;
  /** The could-not-tell bound this worker was dispatched with. */
  unclassifiedMs: number;
  /** Fingerprint when the first prompt went out (to recognise a turn that ran between two reads). */
  briefFingerprint: string | null;
  /** Enters pressed again because the first prompt sat unsubmitted in the box (bounded). */
  briefRetries: number;
  /** Starting: when the first idle, empty-box screen has had its time to settle and the first prompt may be typed (absolute time). */
  startupSettleAt: number | null;
  /** When the box still holding our first prompt counts as a lost Enter (absolute time). */
  resubmitAt: number | null;
  /**
   * Briefing without a `working` screen seen: when an idle, empty box held unchanged since then
   * counts as a turn that ran between two reads (absolute time).
   */
  briefQuietAt: number | null;
  /**
   * Briefing: when a worker still confirming (no work, dialog, box text or changed idle screen
   * seen since the prompt or its last re-pressed Enter) is blocked instead (absolute time).
   */
  briefConfirmAt: number | null;
  /** Absolute deadlines used during teardown. */
  escapeSettleAt: number | null;
  /** Teardown: how long an interrupted turn gets to stop working. */
  interruptSettleAt: number | null;
  /** Teardown: how long the box gets to show empty after ctrl-u. */
  clearSettleAt: number | null;
  stopAt: number | null;
  stopRequested: boolean;
  reportExists: boolean | null;
  waitingOn: string | null;
  exitCode: number | null;
  /** Why the worker failed, or why the host could not tell (herdr server down = 'wait-failed'). */
  problem: string | null;
  /** The open or approved landing. */
  landing: LandingSummary | null;
  landed: LandingOutcome | null;
  /** The latest rejection at either gate, with the person's reason. */
  rejection: GateRejection | null;
  /** The latest landing the port refused (the worker went back to done). */
  landingFailure: LandingFailure | null;
  /** The agent exited while its landing was pending: teardown has nothing left to stop. */
  paneExited: boolean;
}

/** Context fields added after snapshot version 1, with the value a version-1 snapshot means. */
export const CONTEXT_DEFAULTS_SINCE_V1 = {
  startupSettleAt: null,
  briefQuietAt: null,
  briefConfirmAt: null,
  interruptSettleAt: null,
  clearSettleAt: null,
  briefGate: false,
  landing: null,
  landed: null,
  rejection: null,
  landingFailure: null,
  paneExited: false,
} as const satisfies Partial<WorkerContext>;

/** Fields the context gained at snapshot version 3 (the could-not-tell bound), with the values a worker restored from version 2 takes. */
export const CONTEXT_DEFAULTS_SINCE_V2 = {
  unclassifiedAt: null,
  unclassifiedMs: 30_000,
} as const satisfies Partial<WorkerContext>;

export type WorkerEvent =
  /**
   * `turnEnded`: the agent's own word says its turn ended and this screen agrees (actors/witness.ts:
   * the box back, no turn running, no dialog): the worker settles without the quiet window.
   */
  | { type: 'SCREEN'; reading: ScreenReading; at: number; turnEnded?: boolean }
  | { type: 'EXITED'; code: number | null; at: number }
  /** herdr: the pane was absent twice; serverUp says whether that proves anything. */
  | { type: 'PANE_MISSING'; serverUp: boolean; at: number }
  /** The agent's process died with the previous daemon (pty) or with its terminal server (`why`: which). */
  | { type: 'LOST'; at: number; why?: string }
  /** `decision`: the text is that decision's answer (its Enter is marked first: io/brief/submission-mark.ts). */
  | { type: 'SEND'; text: string; allowNonEmptyBox: boolean; requestId: number; decision?: string }
  /**
   * A parked worker's answer went in while no daemon watched (a restart's recovery found it
   * entered or sent): its turn on the answer is under way or already over, whatever the screen.
   */
  | { type: 'ANSWER_IN'; at: number }
  | { type: 'KEYS'; key: Key; allowNonEmptyBox: boolean; requestId: number }
  | { type: 'STOP'; at: number; timeoutMs: number }
  /** A person's `hand approve` at the open gate (brief or landing). */
  | { type: 'APPROVE'; at: number; acceptedAgentSettings?: string }
  /** A person's `hand reject --reason` at the open gate. */
  | { type: 'REJECT'; reason: string; at: number }
  /** `hand land`: the evidence was gathered and passed every check; yolo skips the wait. */
  | { type: 'LAND'; landing: LandingSummary; yolo: boolean; at: number }
  | { type: 'DEADLINE'; name: DeadlineName; at: number };

export type DeadlineName = 'stall' | 'unclassified' | 'escape-settle' | 'interrupt-settle' | 'clear-settle' | 'stop' | 'resubmit' | 'brief-quiet' | 'brief-confirm' | 'startup-settle' | 'settle-quiet';

/** Parameters of the person-command actions the wiring implements. */
export interface DeliverTextParams { id: string; paneId: string; text: string; allowNonEmptyBox: boolean; requestId: number; decision?: string }
export interface DeliverKeyParams { id: string; paneId: string; key: Key; allowNonEmptyBox: boolean; requestId: number }
/** `dialog` and `reason`: what an `awaiting-input` refusal quotes (the dialog the reading saw). */
export interface RefuseParams { id: string; requestId: number; code: string; box: string; kind: string; dialog?: DialogReading | null; reason?: string | null }
