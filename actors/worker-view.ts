/**
 * The WorkerView: what the daemon and the CLI see of a worker. Built from the intent (what we
 * asked for), the worker actor's snapshot (what the machine decided) and the pane's liveness.
 */
import type { DialogReading, ScreenReading } from '../io/screen/types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { WorkerContext } from '../machines/worker.types.ts';
import { gateOf, type GateName } from './gates.ts';
import type { Condition, StateMark } from '../contract/vocabulary.ts';
import type { StateMeaning } from './condition.ts';
import type { WitnessView } from './witness.ts';

/**
 * Fields copied from the latest reading, the intent and the actor's context keep their sources'
 * types (and docs), so a change there shows up here instead of silently diverging.
 */
type ReadingFields = Pick<ScreenReading, 'state' | 'awaitingInput' | 'blockedReason' | 'promptBox' | 'promptBoxKind' | 'readable' | 'lastActivity' | 'background'>;
type IntentFields = Pick<WorkerIntent, 'id' | 'project' | 'backend' | 'agent' | 'agentVersion' | 'worktree' | 'branch' | 'base' | 'briefPath' | 'reportPath'>;
type ContextFields = Pick<WorkerContext, 'lastChangeAt' | 'stallAt' | 'exitCode' | 'waitingOn' | 'paneId' | 'landing' | 'landed' | 'rejection' | 'landingFailure'>;

export interface WorkerView extends ReadingFields, IntentFields, ContextFields, Partial<WitnessView> {
  /** Where it runs: `local` or the name of a host reached over ssh (issue 28). */
  host: string;
  /** Machine phase path: 'running.blocked', 'settled.unconfirmed', 'done', 'parked', 'stopped', … (for people: code reads condition and marks). */
  stage: string;
  /** What the stage means, from the machine's tags (actors/condition.ts). */
  condition: Condition;
  /** Details the stage's tags add (which gate, landable, parked, how it ended). */
  marks: StateMark[];
  /** true = process running, false = exited, null = could not tell (or no pane yet). */
  live: boolean | null;
  /** Whether report.md exists; false also when the context could not tell (null there). */
  reportExists: boolean;
  updatedAt: number;
  /** Why the worker failed, or what could not be told ('wait-failed'); null when nothing to say. */
  problem: WorkerContext['problem'];
  /** The gate the worker waits at ('brief approval' | 'landing approval'), or null. */
  gate: GateName | null;
  /** The dialog a readable screen waits on (io/screen/dialog.ts): what `hand answer` answers, by its fingerprint. */
  dialog?: DialogReading | null;
  /**
   * Why its screen cannot be read now (its terminal server did not answer within its bound), or
   * null: the screen's fields then say could not tell, whatever was read last (issue 38 item 8).
   */
  couldNotTell?: string | null;  /** Dispatched read-only (counsel): its report is the result; nothing lands, `hand close` ends it. */
  readOnly?: boolean;
}

export { stagePath } from './condition.ts';

export interface ViewParts {
  intent: WorkerIntent;
  stage: string;
  meaning: StateMeaning;
  context: WorkerContext | null;
  live: boolean | null;
  updatedAt: number;
  problem?: string | null;
  /** The hooks' word beside the screen (actors/witness.ts); none before any hook. */
  witness?: WitnessView;
  /** Its terminal server did not answer within its bound: why (actors/host-answers.ts). */
  couldNotTell?: string | null;
  /** Dispatched read-only (counsel): nothing lands, `hand close` ends it. */
  readOnly?: boolean;
}

export function buildView({ intent, stage, meaning, context: c, live, updatedAt, problem, witness, couldNotTell, readOnly }: ViewParts): WorkerView {
  // A silent server makes a pane's screen unreadable now: the last reading is not shown as if it
  // were current (readable, live, a dialog, a box), whatever the machine has noted yet.
  const silent: string | null = couldNotTell && meaning.condition !== 'gone' && c?.paneId ? couldNotTell : null;
  const r = silent && c?.reading ? { ...c.reading, state: 'unknown' as const, readable: false, awaitingInput: false, promptBox: null, promptBoxKind: null, dialog: null } : (c?.reading ?? null);
  return {
    id: intent.id,
    project: intent.project,
    stage,
    condition: meaning.condition,
    marks: meaning.marks,
    state: r?.state ?? 'unknown',
    awaitingInput: r?.readable === true && r.awaitingInput,
    blockedReason: r?.blockedReason ?? null,
    promptBox: r?.promptBox ?? null,
    promptBoxKind: r?.promptBoxKind ?? null,
    readable: r?.readable ?? false,
    // Background work the screen or the agent's Stop hook says still runs (issue 43); null: none.
    background: meaning.condition !== 'gone' && (r?.background ?? 0) > 0 ? r!.background! : null,
    live: meaning.condition === 'gone' ? false : silent ? null : live,
    backend: intent.backend,
    host: intent.host ?? 'local',
    agent: intent.agent,
    // The version read at dispatch (its screen profile's era); null when it could not tell.
    agentVersion: intent.agentVersion ?? null,
    worktree: intent.worktree,
    ...(readOnly ? { readOnly: true } : {}),
    branch: intent.branch,
    base: intent.base,
    briefPath: intent.briefPath,
    reportPath: intent.reportPath,
    reportExists: c?.reportExists === true,
    lastActivity: r?.lastActivity ?? '',
    lastChangeAt: c?.lastChangeAt ?? null,
    stallAt: c?.stallAt ?? null,
    exitCode: c?.exitCode ?? null,
    updatedAt,
    waitingOn: c?.waitingOn ?? null,
    paneId: c?.paneId ?? null,
    problem: problem ?? c?.problem ?? null,
    gate: gateOf(meaning.marks),
    dialog: r?.readable === true && r.awaitingInput && meaning.condition !== 'gone' ? (r.dialog ?? null) : null,
    landing: c?.landing ?? null,
    landed: c?.landed ?? null,
    rejection: c?.rejection ?? null,
    landingFailure: c?.landingFailure ?? null,
    hook: witness?.hook ?? null,
    hookReason: witness?.hookReason ?? null,
    disputed: meaning.condition === 'gone' ? null : (witness?.disputed ?? null),
    tokens: witness?.tokens ?? null,
    couldNotTell: silent,
  };
}
