/**
 * `hand land` for a project behind the no-mistakes gate. Every outcome is a refusal that says
 * what the gate says, because the gate (not kingshand) drives the work to its PR:
 *  - a task of a prod-only project classified internal ships direct-PR: named, not landed here yet;
 *  - findings or a park: each finding listed; the land guard turns each into a decision record
 *    (actors/daemon/gate-findings-decisions.ts);
 *  - a passed run: its PR, merged on the forge by the person.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { WorkerRow } from '../../persistence/types.ts';
import { landingGateCheck, readDelivery } from './review-gate.ts';

export async function noMistakesLanding(row: WorkerRow, env: Record<string, string | undefined> | undefined): Promise<never> {
  const delivery = readDelivery(row.briefPath);
  if (delivery?.ships === 'direct-PR') {
    throw new RefusedError(
      'ships-direct-pr',
      `worker ${row.id}'s task was classified internal, so it ships direct-PR without the review gate; landing such a task from a prod-only project is not wired here yet. Push ${row.branch} and open its PR yourself (gh pr create), then discard the worker.`,
      { id: row.id },
    );
  }
  const passed = await landingGateCheck({ id: row.id, worktree: row.worktree, branch: row.branch, env });
  throw new RefusedError(
    'gate-passed',
    `the review gate passed for ${row.id} (${passed.detail})${passed.pr ? ` Its PR: ${passed.pr}.` : ''} The gate delivers the work; the PR is merged on the forge by the person. Nothing else is landed here.`,
    { id: row.id, pr: passed.pr, runId: passed.runId, outcome: passed.outcome },
  );
}
