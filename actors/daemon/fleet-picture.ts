/**
 * The Hand's two read-only views of the fleet, served by the daemon (it owns the store and the
 * screens): `survey`, the whole picture now, sorted into what needs the person, what landed,
 * what is underway and what comes next; and `audience`, what happened since a moment, from the
 * journal (so it survives a daemon restart), grouped per worker, de-duplicated, newest last.
 * Conditions come from `conditionOf` only, so the vocabulary has one owner.
 */
import { quotedOrEmpty, quotedOrNull, quoteWorker } from '../../contract/worker-words.ts';
import { existsSync } from 'node:fs';
import { UsageError } from '../../contract/errors.ts';
import type { FleetStore, StoredJournalEntry } from '../../persistence/types.ts';
import { stagePath } from '../worker-view.ts';
import type { FleetHostApi, WorkerViewLike } from '../fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { conditionOf } from '../wait-report.ts';
import { meaningOfStage, waitReasonOf, type StateMeaning } from '../condition.ts';
import { optionsOf, questionOf } from '../../io/screen/question-text.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import { surveyQueue } from './survey-queue.ts';
import { setupFacts } from '../../io/agent/setup-facts.ts';

export type { Audience, AudienceEvent, AudienceKind, Survey, SurveyItem, SurveyWorker } from '../../contract/methods.ts';
import type { Audience, AudienceEvent, AudienceKind, Survey, SurveyItem, SurveyWorker } from '../../contract/methods.ts';



/** The last stage of a worker that landed: the only 'gone' that is good news. */
const isLanded = (stage: string) => meaningOf(stage)?.marks.includes('landed') === true;

/** A journal row may name a stage of an older machine: that row then tells nothing, never throws. */
function meaningOf(stage: string): StateMeaning | null {
  try {
    return meaningOfStage(stage);
  } catch {
    return null;
  }
}

/** The worker's own words as read (the buckets quote them into their lines), beside the wire row. */
interface Surveyed {
  row: SurveyWorker;
  words: { question: string | null; lastActivity: string };
}

async function surveyWorker(fleet: FleetHostApi, v: WorkerViewLike, diagnostics: string[]): Promise<Surveyed> {
  const condition = conditionOf(v) ?? 'working';
  let question: string | null = null;
  let options: string[] = [];
  if (condition === 'blocked' && v.gate === null && v.live !== false) {
    const screen = await fleet.readScreen(v.id).catch((err: unknown) => ({ ok: false as const, error: String(err) }));
    if (screen.ok) {
      question = questionOf(screen.text);
      options = optionsOf(screen.text);
    } else diagnostics.push(`[${v.id}] screen unreadable: ${screen.error.slice(0, 160)}`);
  }
  // On the wire the screen's words are quoted and attributed, like every face's (issue 37).
  const row: SurveyWorker = {
    id: v.id, project: v.project, host: v.host, agent: v.agent, agentVersion: v.agentVersion ?? null, stage: v.stage, condition, live: v.live, gate: v.gate, waitingOn: v.waitingOn ?? null,
    question: quotedOrNull(v.id, question), options: options.map((o) => quoteWorker(v.id, o)), reportPath: v.reportPath, reportExists: v.reportExists, lastActivity: quotedOrEmpty(v.id, v.lastActivity),
  };
  return { row, words: { question, lastActivity: v.lastActivity } };
}

/** Each worker goes to exactly one bucket. */
function bucket({ row: w, words }: Surveyed): { to: 'needsYou' | 'recentlyLanded' | 'underway' | 'next'; item: SurveyItem } {
  const item = (kind: string, text: string) => ({ id: w.id, kind, text });
  if (w.gate) return { to: 'needsYou', item: item('gate', `${w.id} waits for your ${w.gate}`) };
  if (w.waitingOn) return { to: 'needsYou', item: item('parked', `${w.id} parked on a decision — ${quoteWorker(w.id, w.waitingOn)}`) };
  if (w.condition === 'blocked') return { to: 'needsYou', item: item('blocked', `${w.id} asks — ${quoteWorker(w.id, words.question ?? words.lastActivity)}`) };
  if (isLanded(w.stage)) return { to: 'recentlyLanded', item: item('landed', `${w.id} landed${w.reportExists ? ` (report ${w.reportPath})` : ''}`) };
  if (w.condition === 'settled') {
    return w.reportExists
      ? { to: 'needsYou', item: item('report', `${w.id} finished; report ${w.reportPath}`) }
      : { to: 'needsYou', item: item('no-report', `${w.id} finished without a report (suspicious)`) };
  }
  if (w.condition === 'working') return { to: 'underway', item: item('working', `${w.id} working — ${quoteWorker(w.id, words.lastActivity.slice(0, 100))}`) };
  return { to: 'next', item: item(w.condition, `${w.id} ${w.condition} (${w.stage})`) };
}

export async function buildSurvey(store: FleetStore, fleet: FleetHostApi, now = Date.now(), work?: WorkStores, env?: Record<string, string | undefined>, home?: string): Promise<Survey> {
  const diagnostics: string[] = [];
  const projects = store.listProjects().map((p) => ({ name: p.name, repo: p.repo, posture: p.posture, yolo: p.yolo, defaultAgent: p.defaultAgent ?? null, pathExists: existsSync(p.repo) }));
  const surveyed = await Promise.all(fleet.views().map((v) => surveyWorker(fleet, v, diagnostics)));
  const workers = surveyed.map((w) => w.row);
  const out: Survey = { contract: 'hand-survey.v1', generatedAt: new Date(now).toISOString(), projects, workers, needsYou: [], recentlyLanded: [], underway: [], next: [], away: null, setup: null, diagnostics };
  // The daemon's environment is the one that launches workers: the version said is the one they run.
  // The daemon's home: what each agent was last calibrated at (calibration.json), beside its installed version.
  if (env) out.setup = await setupFacts(env, home);
  for (const p of projects) if (!p.pathExists) out.needsYou.push({ id: p.name, kind: 'path-missing', text: `project ${p.name}: ${p.repo} is missing` });
  if (projects.length === 0) out.needsYou.push({ id: '-', kind: 'no-projects', text: 'no projects registered yet (annex a repository)' });
  for (const w of surveyed) {
    const { to, item } = bucket(w);
    out[to].push(item);
  }
  if (work) {
    const q = surveyQueue(work, new Set(workers.filter((w) => w.waitingOn).map((w) => w.id)));
    out.needsYou.push(...q.needsYou);
    out.next.push(...q.next);
    out.away = q.away;
  }
  return out;
}




/** The kind a journal row's new stage stands for, given the kind before it (null = nothing to tell). */
export function kindOf(stage: string, previous: AudienceKind | null, firstRowOfWorker: boolean): AudienceKind | null {
  const meaning = meaningOf(stage);
  if (!meaning) return null;
  const cond = waitReasonOf({ condition: meaning.condition, live: true, awaitingInput: false });
  if (cond === 'gone') return meaning.marks.includes('landed') ? 'landed' : 'exited';
  // A dispute is the witness's, never a journal row's (no `disputed` is passed here).
  if (cond !== null && cond !== 'disputed') return cond;
  if (firstRowOfWorker) return 'dispatched';
  if (previous === 'blocked') return 'answered';
  if (previous === 'settled') return 'prompted';
  return null;
}

const PAGE = 5000;

function journalSince(store: FleetStore, since: number): StoredJournalEntry[] {
  const rows: StoredJournalEntry[] = [];
  for (let after = 0; ; ) {
    const page = store.journal({ afterSeq: after, limit: PAGE });
    for (const r of page) if (r.at >= since) rows.push(r);
    if (page.length < PAGE) return rows;
    after = page.at(-1)!.seq;
  }
}

export function buildAudience(store: FleetStore, since: number, now = Date.now()): Audience {
  const byWorker = new Map<string, { events: AudienceEvent[]; last: AudienceKind | null; lastAt: number }>();
  const firstSeq = new Map<string, number>();
  for (const row of journalSince(store, 0)) {
    if (!row.actorId.startsWith('worker:')) continue;
    const id = row.actorId.slice('worker:'.length);
    if (!firstSeq.has(id)) firstSeq.set(id, row.seq);
    const entry = byWorker.get(id) ?? { events: [], last: null, lastAt: 0 };
    byWorker.set(id, entry);
    const stage = stagePath(row.to);
    const kind = kindOf(stage, entry.last, firstSeq.get(id) === row.seq);
    if (kind === null) continue;
    if (kind === entry.last) {
      // A restart re-enters the state it left; a repaint re-enters blocked: one line each.
      const lastEvent = entry.events.at(-1);
      if (row.at >= since && lastEvent?.kind === kind) lastEvent.count++;
      continue;
    }
    entry.last = kind;
    if (row.at < since) continue;
    entry.events.push({ kind, at: new Date(row.at).toISOString(), stage, count: 1 });
    entry.lastAt = row.at;
  }
  const workers = [...byWorker.entries()]
    .filter(([, e]) => e.events.length > 0)
    .sort((a, b) => a[1].lastAt - b[1].lastAt)
    .map(([id, e]) => ({ id, events: e.events }));
  return { contract: 'hand-audience.v1', since: new Date(since).toISOString(), until: new Date(now).toISOString(), workers };
}

export function pictureHandlers(deps: { store: FleetStore; fleet: FleetHostApi; work?: WorkStores; env?: Record<string, string | undefined>; home?: string }): Pick<MethodTable, 'survey' | 'audience'> {
  return {
    async survey() {
      return buildSurvey(deps.store, deps.fleet, Date.now(), deps.work, deps.env, deps.home);
    },
    // `since` was checked at the edge (param-parsers.ts): a time in epoch milliseconds.
    async audience({ since }) {
      return buildAudience(deps.store, since);
    },
  };
}
