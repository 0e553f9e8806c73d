/**
 * `hand doctor --calibrate` on the wire (issue 39 items 1 and 2): each installed agent CLI driven
 * through the situations a worker meets, against a fake model API on 127.0.0.1, and at each one
 * what kingshand's screen reader (and the agent's hook witness) said; and the record of the
 * version each agent was last calibrated at, which the doctor, the digest, the survey and the
 * review page compare with the version installed now.
 */
import type { AgentName, BackendName } from '../vocabulary.ts';
import type { HookWord } from './fleet.ts';

/** The situations, in the order a calibration brings the agent into them. */
export const CALIBRATION_SITUATIONS = ['first-start', 'typed-text', 'idle', 'working', 'finished', 'permission', 'question', 'api-error', 'exit'] as const;
export type CalibrationSituation = (typeof CALIBRATION_SITUATIONS)[number];

/** Each situation in a person's words (the output's first column). */
export const SITUATION_TITLES: Readonly<Record<CalibrationSituation, string>> = {
  'first-start': 'first start',
  'typed-text': 'typed text',
  idle: 'idle',
  working: 'working',
  finished: 'finished turn',
  permission: 'permission dialog',
  question: 'question menu',
  'api-error': 'API error',
  exit: 'exit',
};

/**
 * right: read as what it is. wrong: misread (or the witness said otherwise). not-reached: the
 * agent could not be brought there within its bound (a release that changed how it behaves: the
 * screens say what it showed instead). not-applicable: the agent has no such situation, in its
 * own words (Codex CLI answers its question tool itself outside Plan mode).
 */
export type SituationOutcome = 'right' | 'wrong' | 'not-reached' | 'not-applicable';

export interface SituationResult {
  situation: CalibrationSituation;
  outcome: SituationOutcome;
  /** What this situation must read as ("working", "blocked (permission)", "idle, box holds \"…\""). */
  expected: string;
  /** What the screen reader said, in the same words (null when the situation was not reached). */
  read: string | null;
  /** The hook witness, where the agent has one that speaks here (null: it says nothing in this situation). */
  witness: { expected: HookWord; heard: HookWord[]; ok: boolean } | null;
  /** Why, in words: what was awaited and not seen, or why the situation does not apply. */
  note: string | null;
  /** How long the situation took, from its first step to its verdict. */
  ms: number;
}

export type CalibrationVerdict = 'pass' | 'fail';

export interface AgentCalibration {
  agent: AgentName;
  /** "Claude Code". */
  label: string;
  /** The version calibrated (`--version` of the binary a dispatch would start). */
  version: string | null;
  binary: string | null;
  /** pass: every situation right or not applicable. fail: one or more wrong or not reached. */
  verdict: CalibrationVerdict;
  situations: SituationResult[];
  /** The folder with the captured screens (ANSI and plain) and this result, written when the verdict is fail. */
  evidence: string | null;
  backend: Extract<BackendName, 'tmux' | 'pty'>;
  /** Whether the agent ran in kingshand's worker sandbox, as a worker does here; `sandboxNote` says why not. */
  sandboxed: boolean;
  sandboxNote: string | null;
  /** When it ran (ISO) and how long it took. */
  at: string;
  ms: number;
}

/** An agent that was not calibrated, and why (not installed, no version, the mock agent). */
export interface CalibrationSkipped {
  agent: AgentName;
  label: string;
  reason: string;
}

/** `--agent all`: every installed agent with a calibration kit. */
export const EVERY_AGENT = 'all';

export interface CalibrateParams {
  /** One agent or all (default all installed). */
  agent?: AgentName | typeof EVERY_AGENT;
  /** The terminal host the agents run in (default tmux where installed, as `hand dispatch`'s default). */
  backend?: 'tmux' | 'pty';
  /** Only the agents whose installed version differs from the one last calibrated. */
  auto?: boolean;
}

export interface CalibrateResult {
  /** false when any agent's verdict is fail (the CLI exits non-zero). */
  ok: boolean;
  agents: AgentCalibration[];
  skipped: CalibrationSkipped[];
}

/** One line as the calibration goes (each situation as its verdict is known). */
export interface CalibrateProgress {
  agent: AgentName;
  situation: CalibrationSituation | null;
  line: string;
}

/** What the state directory keeps of an agent's last calibration (calibration.json). */
export interface CalibrationRecordEntry {
  version: string;
  at: string;
  verdict: CalibrationVerdict;
  /** The situations not read right, with what was read. */
  wrong: { situation: CalibrationSituation; read: string | null; outcome: SituationOutcome }[];
  evidence: string | null;
}

/**
 * Where one installed agent stands against its last calibration. calibrated: at the installed
 * version, every situation right. failed: at the installed version, some situation wrong.
 * not-calibrated: never, or at another version. unknown-version: the binary did not say.
 */
export interface CalibrationStanding {
  agent: AgentName;
  installed: string | null;
  last: CalibrationRecordEntry | null;
  standing: 'calibrated' | 'failed' | 'not-calibrated' | 'unknown-version';
  /** One line for doctor, the digest, the survey and the page. */
  line: string;
}
