/**
 * What the worker page shows beyond the live view: the brief and report files, the landing
 * evidence (gathered by the same io/git function `hand land` uses, read-only), the full diff,
 * and the worker's journal. Gathered on page load and when the worker changes stage.
 * The report is the worker's (issue 37): read without following a link or blocking on a FIFO,
 * capped, and a refused one is shown refused with its reason. The brief is the daemon's own copy
 * as dispatched, never what the worker may have written over its brief.md.
 */
import { readBriefAsDispatched } from '../../io/brief/brief-copy.ts';
import { REPORT_READ_CAP } from '../../io/brief/worker-layout.ts';
import { readUntrustedFile, refusalLine } from '../../io/fs/untrusted-file.ts';
import { gatherLandingEvidence, type LandingEvidence } from '../../io/git/index.ts';
import { landingDiff } from '../../io/git/landing-diff.ts';
import { landingAgentSettings } from '../../io/agent/project-settings/index.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';
import type { FleetStore, StoredJournalEntry } from '../../persistence/types.ts';
import type { WorkerViewLike } from '../fleet-api.ts';
import type { Overlap } from '../../contract/methods.ts';
import type { ServedMethods } from '../../contract/protocol.ts';
import type { AnnotationRow, ReviewItem } from '../../contract/methods/annotations.ts';
import type { BrowserChecksVerdict } from '../../contract/browser-checks.ts';
import { browserChecksEvidence } from '../../io/browser/checks-evidence.ts';
import { reviewItemsOf } from './review-items.ts';

/** The most of a report the page shows (the daemon's report cap). */
const FILE_CAP = REPORT_READ_CAP;

/** A file as the page shows it: its text (cut at FILE_CAP: said), why it could not be read, or refused with the reason. */
export type ShownFile = { text: string; truncated?: boolean; note?: string } | { error: string } | { refused: string };

export interface WorkerDetails {
  brief: ShownFile;
  /** null: no report (nothing at its path). */
  report: ShownFile | null;
  evidence: { evidence: LandingEvidence; patch: string; truncated: boolean; agentSettings: LandingAgentSettings | { error: string } } | { error: string } | null;
  journal: StoredJournalEntry[];
  posture: string | null;
  /** The stage the details were gathered at: before done, an empty branch is simply early. */
  stage: string;
  /** Other live workers of the repository touching the same files (issue 40). */
  overlaps: Overlap[];
  /** What the person decides on, by id, with their notes (issue 40); absent where the page has no daemon behind it. */
  review?: { items: ReviewItem[]; filesCapped: boolean; notes: AnnotationRow[] };
  /** The worker's browser checks, judged (issue 40); null when its brief asks for none. */
  browserChecks?: BrowserChecksVerdict | null;
}

/** How the page learns a worker's overlaps: the daemon's own `status` row (one answer for every face). */
export type OverlapsOf = (id: string) => Promise<Overlap[]>;

export function overlapsVia(served: ServedMethods): OverlapsOf {
  return async (id) => {
    const status = served.status;
    if (!status) return [];
    try {
      const rows = (await status({ id }, { progress: () => {}, signal: new AbortController().signal })) as { overlaps?: Overlap[] }[];
      return rows[0]?.overlaps ?? [];
    } catch {
      return [];
    }
  };
}

async function readReport(path: string): Promise<ShownFile | null> {
  const r = await readUntrustedFile(path, { maxBytes: FILE_CAP });
  if (r.kind === 'absent') return null;
  if (r.kind === 'refused') return { refused: `The report at ${path} was ${refusalLine(r)}.` };
  return { text: r.text, ...(r.truncated ? { truncated: true, note: `The report is ${r.size} bytes; the first ${FILE_CAP} are shown (truncated): open it in an editor for the rest.` } : {}) };
}

async function readBrief(path: string): Promise<ShownFile> {
  const b = await readBriefAsDispatched(path);
  if ('error' in b) return { error: b.error };
  return { text: b.text, ...(b.from === 'worker-directory' ? { note: `The brief in the worker's directory (${path}): this worker was dispatched before the daemon kept its own copy.` } : {}) };
}

/** Stages where a branch has nothing yet, or is gone: no evidence to gather. */
const NO_BRANCH = new Set(['gate.awaitingBriefApproval', 'preparing', 'seeding', 'spawning', 'rejected', 'landed']);

/** How the page learns a worker's annotations (the daemon's own `annotations` handler). */
export type NotesOf = (id: string) => Promise<AnnotationRow[]>;

export async function workerDetails(view: WorkerViewLike, store: Pick<FleetStore, 'getWorker' | 'getProject' | 'journal'>, journalLimit = 80, overlapsOf?: OverlapsOf, notesOf?: NotesOf): Promise<WorkerDetails> {
  const row = store.getWorker(view.id);
  const posture = store.getProject(view.project)?.posture ?? null;
  const [brief, report, overlaps, review, browserChecks] = await Promise.all([
    readBrief(view.briefPath),
    readReport(view.reportPath),
    overlapsOf ? overlapsOf(view.id) : Promise.resolve([]),
    row && notesOf ? Promise.all([reviewItemsOf(row), notesOf(view.id)]).then(([r, notes]) => ({ items: r.items, filesCapped: r.filesCapped, notes })).catch(() => undefined) : Promise.resolve(undefined),
    row ? browserChecksEvidence(row).catch(() => null) : Promise.resolve(null),
  ]);
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
  return { brief, report, evidence, journal: all.slice(-journalLimit).reverse(), posture, stage: view.stage, overlaps, ...(review && { review }), browserChecks };
}
