/**
 * What the worker page shows beyond the live view: the brief and report files, the landing
 * evidence (gathered by the same io/git function `hand land` uses, read-only), the full diff,
 * and the worker's journal. Gathered on page load and when the worker changes stage.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gatherLandingEvidence, type LandingEvidence } from '../../io/git/index.ts';
import { landingDiff } from '../../io/git/landing-diff.ts';
import { landingAgentSettings } from '../../io/agent/project-settings/index.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';
import type { FleetStore, StoredJournalEntry } from '../../persistence/types.ts';
import type { WorkerViewLike } from '../fleet-api.ts';

const FILE_CAP = 256_000;

export interface WorkerDetails {
  brief: { text: string } | { error: string };
  report: { text: string } | { error: string } | null;
  evidence: { evidence: LandingEvidence; patch: string; truncated: boolean; agentSettings: LandingAgentSettings | { error: string } } | { error: string } | null;
  journal: StoredJournalEntry[];
  posture: string | null;
  /** The stage the details were gathered at: before done, an empty branch is simply early. */
  stage: string;
}

function readText(path: string, what: string): { text: string } | { error: string } {
  try {
    if (!existsSync(path)) return { error: `no ${what} at ${path}` };
    if (statSync(path).size > FILE_CAP) return { error: `the ${what} at ${path} is larger than ${FILE_CAP} bytes; open it in an editor` };
    return { text: readFileSync(path, 'utf8') };
  } catch (err) {
    return { error: `could not read the ${what} (${(err as Error).message})` };
  }
}

/** Stages where a branch has nothing yet, or is gone: no evidence to gather. */
const NO_BRANCH = new Set(['gate.awaitingBriefApproval', 'preparing', 'seeding', 'spawning', 'rejected', 'landed']);

export async function workerDetails(view: WorkerViewLike, store: Pick<FleetStore, 'getWorker' | 'getProject' | 'journal'>, journalLimit = 80): Promise<WorkerDetails> {
  const row = store.getWorker(view.id);
  const posture = store.getProject(view.project)?.posture ?? null;
  const brief = readText(view.briefPath, 'brief');
  const report = view.reportExists || existsSync(view.reportPath) ? readText(view.reportPath, 'report') : null;
  let evidence: WorkerDetails['evidence'] = null;
  if (row && !NO_BRANCH.has(view.stage)) {
    try {
      const e = await gatherLandingEvidence({ repo: row.repo, branch: row.branch, base: row.base, worktree: row.worktree });
      const { patch, truncated } = await landingDiff(row.repo, e.baseSha, e.headSha);
      // Read from the commits, as the landing reads them: what the page shows is what would land.
      const agentSettings = await landingAgentSettings(row.repo, e.baseSha, e.headSha).catch((err: unknown) => ({ error: (err as Error).message }));
      evidence = { evidence: e, patch, truncated, agentSettings };
    } catch (err) {
      evidence = { error: (err as Error).message };
    }
  }
  const all = store.journal({ actorId: `worker:${view.id}` });
  return { brief, report, evidence, journal: all.slice(-journalLimit).reverse(), posture, stage: view.stage };
}
