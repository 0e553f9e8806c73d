/**
 * The side effects a worker needs, as injectable ports: the real ones (real-ports.ts beside this
 * file) touch git, the agent's settings and the file system; tests pass fakes. The fleet host
 * turns them into the actor implementations the pure worker machine names (see
 * actors/worker-logic.ts). They live in io/, with what they reach, so the daemon only wires them.
 */
import type { Key, TerminalHost } from '../terminal/types.ts';
import type { WorkerIntent } from '../../contract/methods/fleet.ts';
import type { LaunchSpec } from '../agent/launch.ts';

export interface WorkerPorts {
  /** Create the worktree and branch (idempotent: a restore may call it again). */
  prepareWorktree(intent: WorkerIntent, signal: AbortSignal): Promise<void>;
  /** Settings, folder trust, environment files for the agent in the worktree. */
  seedAgent(intent: WorkerIntent, signal: AbortSignal): Promise<void>;
  launchSpec(intent: WorkerIntent): LaunchSpec;
  /** `intent`: whose report (a far worker's is read back from its host into `path` first). */
  reportExists(path: string, intent?: WorkerIntent): Promise<boolean>;
  /** The report's parked pointer (an open decision); absent = never parked. */
  readReport?(path: string, intent?: WorkerIntent): Promise<{ waitingOn: string | null }>;
  /**
   * Guarded sends (io/terminal/guarded-send.ts): re-read the live box before typing. The machine
   * has already applied the same rule to its latest reading; this is the check at the glass.
   */
  /** `decision`: the text is that decision's answer (its `beforeEnter` marks it; fault holds see it). */
  sendText(host: TerminalHost, paneId: string, text: string, opts: { allowNonEmptyBox: boolean; label?: string; teardown?: boolean; beforeEnter?: () => Promise<void>; agent?: string; decision?: string }): Promise<void>;
  /** `agent`: the screen profile the glass check reads the box with (default Claude Code's). */
  sendKey(host: TerminalHost, paneId: string, key: Key, opts: { allowNonEmptyBox: boolean; agent?: string }): Promise<void>;
  /**
   * The first prompt's submission mark (io/brief/submission-mark.ts): written durably before
   * its Enter, asked by a restore so a prompt that went out is never typed again, cleared when a
   * new pane is made. Absent (test doubles): never marked.
   */
  markFirstPrompt?(intent: WorkerIntent, paneId: string): Promise<void>;
  firstPromptMarked?(intent: WorkerIntent, paneId: string): boolean;
  /** Both marks (the first prompt's and a decision's) go when a new pane is made. */
  clearSubmissionMarks?(intent: WorkerIntent): void;
  /**
   * A decision's answer, marked the same way (issue 43): written before its Enter and naming the
   * decision, asked when an answer is delivered again after a restart (actors/decision-resume.ts).
   */
  markDecision?(intent: WorkerIntent, paneId: string, key: string): Promise<void>;
  /** The decision whose answer was marked in this pane, or null. */
  decisionMarked?(intent: WorkerIntent, paneId: string): string | null;
}
