/**
 * Review-gate findings become decisions (issue 14 item 7). `hand land` of a no-mistakes worker
 * whose gate run reports findings (or is parked) is refused by landingGateCheck; this turns that
 * refusal into one decision record per finding in the decisions store, which `hand decisions`
 * lists and `hand decide` answers (the answer goes to the worker like any other). The key is the
 * worker and the finding's words, so landing again finds the same records instead of twins, and
 * a finding decided once is not asked again. The landing stays refused: while one is open the
 * parked guard refuses it by name; once all are decided, until the gate run stops reporting them.
 */
import { HandError, RefusedError } from '../../contract/errors.ts';
import type { GateFinding } from '../../io/gate/gate-run.ts';
import type { Decision } from '../../persistence/work/decision-store.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import { findingLine } from './review-gate.ts';

export const FINDING_OPTIONS = ['fix it', 'leave it as it is'];

export function findingQuestion(f: GateFinding): string {
  return `Review gate finding ${findingLine(f)}: fix it, or leave it as it is?`;
}

/** Null when `err` is not the gate's findings refusal; else the refusal to give instead. */
export function findingsToDecisions(stores: WorkStores, worker: string, project: string | null, err: unknown): RefusedError | null {
  if (!(err instanceof HandError) || err.code !== 'gate-findings') return null;
  const findings = (Array.isArray(err.details.findings) ? err.details.findings : []) as GateFinding[];
  const parkedOn = typeof err.details.parkedOn === 'string' ? err.details.parkedOn : null;
  const asked: { decision: Decision; created: boolean; finding: string }[] = findings.map((f) => ({ ...stores.decisions.ensure({ worker, project, question: findingQuestion(f), options: FINDING_OPTIONS }), finding: f.id }));
  if (asked.length === 0) {
    const question = `The review gate is parked${parkedOn ? ` on ${parkedOn}` : ''} with no findings listed (no-mistakes axi status shows why): how should it go on?`;
    asked.push({ ...stores.decisions.ensure({ worker, project, question, options: [] }), finding: parkedOn ?? 'parked' });
  }
  const open = asked.filter((a) => a.decision.state === 'open');
  const rows = asked.map((a) => `  - ${a.decision.key}: ${a.decision.question}${a.decision.state === 'open' ? '' : ` (${a.decision.state}: ${JSON.stringify(a.decision.answer)})`}`).join('\n');
  const details = { ...err.details, decisions: asked.map((a) => ({ key: a.decision.key, finding: a.finding, state: a.decision.state, created: a.created })) };
  if (open.length > 0) {
    return new RefusedError(
      'gate-findings',
      `the review gate reported ${asked.length} finding(s) for ${worker}; each is now a decision, and the landing stays refused until they are decided (hand decisions lists them):\n${rows}\nAnswer each with hand decide <key> "<answer>" (the answer goes to ${worker}), or close it with hand decide <key> --declined "<why>". Nothing was landed.`,
      details,
    );
  }
  return new RefusedError(
    'gate-findings',
    `the review gate still reports findings for ${worker}, and each was decided already:\n${rows}\nThe answers went to ${worker}; it acts on them and runs the gate again (hand wait ${worker}), then land again. Nothing was landed.`,
    details,
  );
}
