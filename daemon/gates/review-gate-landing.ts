/**
 * `hand land` for a project behind the no-mistakes gate. Every outcome is a refusal that says
 * what the gate says, because the gate (not kingshand) drives the work to its PR:
 *  - (a task of a prod-only project classified internal ships direct-PR and lands as one:
 *    landing.ts shippingProject; it never reaches here);
 *  - findings or a park: each finding listed; the land guard turns each into a decision record
 *    (daemon/gates/gate-findings-decisions.ts);
 *  - a passed run, yolo on: the worker drove it to its PR, merged on the forge by the person;
 *  - a passed run, yolo off: the run held its outward step (--skip push,pr,ci), so the passed
 *    state is returned and `hand land` opens the landing gate; the approval releases the step
 *    (gate-outward.ts).
 */
import { RefusedError } from '../../contract/errors.ts';
import type { WorkerRow } from '../../persistence/types.ts';
import type { GateRunState } from '../../io/gate/gate-run.ts';
import { landingGateCheck } from './review-gate.ts';

export async function noMistakesLanding(row: WorkerRow, env: Record<string, string | undefined> | undefined, yolo = true): Promise<GateRunState> {
  const passed = await landingGateCheck({ id: row.id, worktree: row.worktree, branch: row.branch, env });
  if (!yolo) return passed;
  throw new RefusedError(
    'gate-passed',
    `the review gate passed for ${row.id} (${passed.detail})${passed.pr ? ` Its PR: ${passed.pr}.` : ''} The gate delivers the work; the PR is merged on the forge by the person. Nothing else is landed here.`,
    { id: row.id, pr: passed.pr, runId: passed.runId, outcome: passed.outcome },
  );
}
