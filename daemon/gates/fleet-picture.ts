/**
 * The Hand's two read-only views of the fleet, served by the daemon (it owns the store and the
 * screens): `survey`, the whole picture now, sorted into what needs the person, what landed,
 * what is underway and what comes next; and `audience`, what happened since a moment, from the
 * journal (so it survives a daemon restart), grouped per worker, de-duplicated, newest last.
 * Conditions come from `conditionOf` only, so the vocabulary has one owner; audience's kinds and
 * words from contract/state-words.ts, the table the page's badges read.
 */
import { quotedOrEmpty, quotedOrNull, quoteWorker } from '../../contract/worker-words.ts';
import { existsSync } from 'node:fs';
import { UsageError } from '../../contract/errors.ts';
import type { FleetStore, StoredJournalEntry } from '../../persistence/types.ts';
import { stagePath } from '../../actors/worker-view.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { meaningOfStage, waitReasonOf, type StateMeaning } from '../../actors/condition.ts';
import { askedOf } from '../../io/screen/asked.ts';
import { FINAL_KINDS, STATE_WORDS, STEP_WORDS, stateKindOf, type StateKind, type StepKind } from '../../contract/state-words.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import { surveyQueue } from './survey-queue.ts';
import { setupFacts } from '../../io/agent/setup-facts.ts';
import { overlapPairs, type OverlapReader } from '../fleet/overlaps.ts';
import { resumeLine } from '../../contract/resume-words.ts';
import type { Cost } from '../../contract/methods.ts';
import type { SessionFacts } from '../sessions/session-handlers.ts';

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

async function surveyWorker(fleet: FleetHostApi, v: WorkerViewLike, diagnostics: string[], sessions?: SessionFacts, costs?: Map<string, Cost>): Promise<Surveyed> {
  const condition = conditionOf(v) ?? 'working';
  let question: string | null = null;
  let options: string[] = [];
  if (condition === 'blocked' && v.gate === null && v.live !== false) {
    // The dialog the agent's reader found is what is asked; the screen is read only without one.
    if (v.dialog) ({ question, options } = askedOf(v.dialog, null));
    else {
      const screen = await fleet.readScreen(v.id).catch((err: unknown) => ({ ok: false as const, error: String(err) }));
      if (screen.ok) ({ question, options } = askedOf(null, screen.text));
      else diagnostics.push(`[${v.id}] screen unreadable: ${screen.error.slice(0, 160)}`);
    }
  }
  // On the wire the screen's words are quoted and attributed, like every face's (issue 37).
  const row: SurveyWorker = {
    id: v.id, project: v.project, host: v.host, agent: v.agent, agentVersion: v.agentVersion ?? null, stage: v.stage, condition, live: v.live, gate: v.gate, waitingOn: v.waitingOn ?? null,
    question: quotedOrNull(v.id, question), options: options.map((o) => quoteWorker(v.id, o)), reportPath: v.reportPath, reportExists: v.reportExists, lastActivity: quotedOrEmpty(v.id, v.lastActivity),
    ...(sessions && { cost: costs?.get(v.id) ?? null, resume: await sessions.standing(v).catch(() => null) }),
  };
  return { row, words: { question, lastActivity: v.lastActivity } };
}

/** Each worker goes to exactly one bucket. */
function bucket({ row: w, words }: Surveyed): { to: 'needsYou' | 'recentlyLanded' | 'underway' | 'next'; item: SurveyItem } {
  const item = (kind: string, text: string) => ({ id: w.id, kind, text });
  if (w.gate) return { to: 'needsYou', item: item('gate', `${w.id} waits for your ${w.gate}`) };
  // Lost with its terminal (a reboot), a question of its own or not: the person brings it back
  // into its own conversation first (hand resume), or learns why that cannot be done.
  if (w.stage === 'lost' && w.resume) return w.resume.can ? { to: 'needsYou', item: item('resumable', resumeLine(w.id, w.stage, w.resume)) } : { to: 'next', item: item('not-resumable', resumeLine(w.id, w.stage, w.resume)) };
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

export async function buildSurvey(store: FleetStore, fleet: FleetHostApi, now = Date.now(), work?: WorkStores, env?: Record<string, string | undefined>, home?: string, overlaps?: OverlapReader, sessions?: SessionFacts): Promise<Survey> {
  const diagnostics: string[] = [];
  const projects = store.listProjects().map((p) => ({ name: p.name, repo: p.repo, posture: p.posture, yolo: p.yolo, defaultAgent: p.defaultAgent ?? null, pathExists: existsSync(p.repo) }));
  const costs = sessions?.workerCosts();
  const surveyed = await Promise.all(fleet.views().map((v) => surveyWorker(fleet, v, diagnostics, sessions, costs)));
  const workers = surveyed.map((w) => w.row);
  const out: Survey = { contract: 'hand-survey.v1', generatedAt: new Date(now).toISOString(), projects, workers, needsYou: [], recentlyLanded: [], underway: [], next: [], overlaps: [], away: null, setup: null, diagnostics };
  // Two live workers touching the same files (issue 40): the second landing will need a rebase.
  if (overlaps) out.overlaps = overlapPairs(await overlaps.of(fleet.views()).then((r) => r.byWorker, () => new Map()));
  // The daemon's environment is the one that launches workers: the version said is the one they run.
  // The daemon's home: what each agent was last calibrated at (calibration.json), beside its installed version.
  if (env) out.setup = await setupFacts(env, home);
  if (sessions) out.cost = sessions.todayCost();
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


/**
 * The states `hand audience` tells, in the page's badge words (contract/state-words.ts). Not told:
 * the steps between them (being set up, busy, working, checking the report, landing, stopping),
 * which tell nothing a person acts on; working again is told as the step it is (below).
 */
const TOLD: ReadonlySet<StateKind> = new Set<StateKind>([
  'brief-gate', 'blocked', 'stalled', 'unclassified', 'agent-error', 'wait-failed', 'idle', 'done', 'parked', 'landing-gate', 'stuck',
  ...FINAL_KINDS,
]);
const AT_WORK: ReadonlySet<StateKind> = new Set<StateKind>(['working', 'busy']);
const RESTING: ReadonlySet<AudienceKind> = new Set<AudienceKind>(['idle', 'done', 'parked']);

/**
 * The kind a journal row's new stage stands for, given the kind before it (null = nothing to
 * tell). A worker's first row is its dispatch, told before whatever its stage is: a gated
 * worker's first row is already its brief gate.
 */
export function kindOf(stage: string, previous: AudienceKind | null): AudienceKind | null {
  const meaning = meaningOf(stage);
  if (!meaning) return null;
  const kind = stateKindOf(meaning);
  if (TOLD.has(kind)) return kind;
  if (!AT_WORK.has(kind)) return null;
  if (previous === 'blocked') return 'answered';
  if (previous !== null && RESTING.has(previous)) return 'prompted';
  // From the brief gate the only way on is its approval (a rejection or a stop ends the worker).
  if (previous === 'brief-gate') return 'started';
  return null;
}

/** The words of an audience kind: a state's are its badge's. */
export const audienceWords = (kind: AudienceKind): string => (kind in STEP_WORDS ? STEP_WORDS[kind as StepKind] : STATE_WORDS[kind as StateKind]);

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
    if (firstSeq.get(id) === row.seq) {
      entry.last = 'dispatched';
      if (row.at >= since) {
        entry.events.push({ kind: 'dispatched', words: audienceWords('dispatched'), at: new Date(row.at).toISOString(), stage, count: 1 });
        entry.lastAt = row.at;
      }
    }
    const kind = kindOf(stage, entry.last);
    if (kind === null) continue;
    if (kind === entry.last) {
      // A restart re-enters the state it left; a repaint re-enters blocked: one line each.
      const lastEvent = entry.events.at(-1);
      if (row.at >= since && lastEvent?.kind === kind) lastEvent.count++;
      continue;
    }
    entry.last = kind;
    if (row.at < since) continue;
    entry.events.push({ kind, words: audienceWords(kind), at: new Date(row.at).toISOString(), stage, count: 1 });
    entry.lastAt = row.at;
  }
  const workers = [...byWorker.entries()]
    .filter(([, e]) => e.events.length > 0)
    .sort((a, b) => a[1].lastAt - b[1].lastAt)
    .map(([id, e]) => ({ id, events: e.events }));
  return { contract: 'hand-audience.v1', since: new Date(since).toISOString(), until: new Date(now).toISOString(), workers };
}

export function pictureHandlers(deps: { store: FleetStore; fleet: FleetHostApi; work?: WorkStores; env?: Record<string, string | undefined>; home?: string; overlaps?: OverlapReader; sessions?: SessionFacts }): Pick<MethodTable, 'survey' | 'audience'> {
  return {
    async survey() {
      return buildSurvey(deps.store, deps.fleet, Date.now(), deps.work, deps.env, deps.home, deps.overlaps, deps.sessions);
    },
    // `since` was checked at the edge (gate-methods.ts): a time in epoch milliseconds.
    async audience({ since }) {
      return buildAudience(deps.store, since);
    },
  };
}
