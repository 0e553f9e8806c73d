/**
 * The project's words, each written once: what a person may name on the command line, what the
 * daemon accepts on the wire, what the store's CHECK constraints allow and what the machines tag
 * their states with. Every list is an `as const` array and its type is derived from it, so a new
 * backend or posture is one edit here (plus a migration where the store checks it).
 * Pure data: imported by cli/, actors/, io/, persistence/ and machines/ alike.
 */

/** Terminal hosts a worker can run in. */
export const BACKENDS = ['tmux', 'pty', 'herdr'] as const;
export type BackendName = (typeof BACKENDS)[number];

/** How a project's finished work is delivered. */
export const POSTURES = ['local-only', 'direct-PR', 'no-mistakes', 'no-mistakes-prod-only'] as const;
export type Posture = (typeof POSTURES)[number];
/** The postures `hand land` can carry out itself (the no-mistakes ones go through its review gate). */
export const LANDABLE_POSTURES: readonly Posture[] = ['local-only', 'direct-PR'];

/** Agents a worker can run ('mock' draws Claude Code's screens from a script). */
/** A project's workers' permission posture: what Claude Code asks a person (io/agent/claude/permissions.ts). */
export const PERMISSION_POSTURES = ['off', 'edits', 'ask'] as const;
export type PermissionPosture = (typeof PERMISSION_POSTURES)[number];

export const AGENTS = ['claude', 'codex', 'mock', 'gemini', 'opencode', 'qwen'] as const;
export type AgentName = (typeof AGENTS)[number];

/**
 * What a worker's state means, declared on the state itself as an XState tag (machines/):
 * every leaf state carries exactly one of these (tests/machines/every-leaf-has-a-condition).
 *   making    — worktree, seed or pane being made (no pane yet, or not yet known)
 *   gate      — resting at a gate: a person approves or rejects
 *   busy      — the agent is starting, being briefed, or working
 *   blocked   — a dialog or a stuck first prompt: a person must look
 *   stalled   — a readable screen unchanged past its stall time
 *   unclassified — a readable screen nobody could tell for longer than its bound: a person looks
 *   checking  — settled, finding or reading its report (a moment short of settled)
 *   settled   — the turn is over (done, parked, or settled without a confirmed report)
 *   landing   — an approved landing is being applied or cleaned up
 *   stopping  — teardown under way
 *   stuck     — teardown ran out of time: the agent did not leave (stop again)
 *   wait-failed — could not tell (the terminal host did not answer)
 *   gone      — final: stopped, exited, failed, lost, landed or rejected
 */
export const CONDITIONS = [
  'making', 'gate', 'busy', 'blocked', 'stalled', 'unclassified', 'agent-error', 'checking', 'settled', 'landing', 'stopping', 'stuck', 'wait-failed', 'gone',
] as const;
export type Condition = (typeof CONDITIONS)[number];

/**
 * Details a state may add beside its condition (tags too):
 *   brief-gate / landing-gate — which gate it rests at
 *   landable       — `hand land` may open (or refresh) the landing gate from here
 *   parked         — settled on an open decision in the report
 *   working        — a turn is running (the state benches time detection by)
 *   making-pane    — the pane is being made: after a restart it may exist already
 *   exited-cleanly — ended by /exit: its pane may be reused
 *   landed / failed / lost / rejected — how a final state ended (lost: its pty died with the daemon)
 *   no-worktree    — by design there is no worktree here (not made yet, or removed by landing)
 */
export const STATE_MARKS = ['brief-gate', 'landing-gate', 'landable', 'parked', 'working', 'making-pane', 'exited-cleanly', 'landed', 'failed', 'lost', 'rejected', 'no-worktree'] as const;
export type StateMark = (typeof STATE_MARKS)[number];

/** Every tag a worker state may carry. */
export type WorkerTag = Condition | StateMark;

/** What `hand wait` reports waking for (plus 'timeout' when nothing came in time). */
/** disputed: screen and the agent's hooks disagree past their grace (actors/witness.ts). */
export const WAIT_REASONS = ['settled', 'blocked', 'stalled', 'unclassified', 'agent-error', 'disputed', 'gone', 'timeout', 'wait-failed'] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/** What `hand wait --until` accepts. */
export const UNTILS = ['settled', 'blocked', 'stalled', 'exited', 'any'] as const;
export type Until = (typeof UNTILS)[number];

/** Narrows a string to one of a vocabulary's words. */
export function isOneOf<T extends string>(words: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (words as readonly string[]).includes(value);
}

/** What a held backlog item waits for (hand backlog hold --kind). */
export const HOLD_KINDS = ['person', 'external', 'load', 'parked', 'future'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];
