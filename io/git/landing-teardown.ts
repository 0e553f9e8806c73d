/**
 * Teardown after a landing, in the only safe order: stop the worker (by /exit, never a kill) →
 * close its pane → `git worktree remove` (never --force) → prune. If the stop fails, nothing else
 * is touched. The brief directory and the report live outside the worktree and are never deleted.
 * The branch is kept: deleting it is a separate decision (discarding unlanded work).
 */
import { removeWorktree, type RemoveOutcome } from './worktree-remove.ts';

export interface TeardownPorts {
  /** Stops the agent; true only when it is known to have left. */
  stop(): Promise<boolean>;
  /** Closes the pane (the fleet host may already do this as part of a clean stop). */
  closePane?(): Promise<void>;
}

export type TeardownOutcome =
  | { done: true; worktree: RemoveOutcome; steps: string[] }
  | { done: false; reason: string; steps: string[] };

export async function teardownWorker(args: { repo: string; worktree: string }, ports: TeardownPorts): Promise<TeardownOutcome> {
  const steps: string[] = [];
  steps.push('stop');
  if (!(await ports.stop())) return { done: false, reason: 'the worker did not stop; its pane and worktree were left alone (never killed, never removed under a running agent)', steps };
  if (ports.closePane) {
    steps.push('close-pane');
    await ports.closePane();
  }
  steps.push('worktree-remove+prune');
  try {
    const outcome = await removeWorktree(args);
    return { done: true, worktree: outcome, steps };
  } catch (err) {
    return { done: false, reason: (err as Error).message, steps };
  }
}
