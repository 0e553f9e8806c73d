/**
 * The daemon's side of issue 41: `hand resume` (each named or lost worker back in its own
 * conversation, one at a time), `hand cost` (per worker, project and day), and what status rows
 * say of a worker's session: the session of its launch, whether a gone worker's conversation can
 * be resumed (and why not), and its cost.
 */
import { HandError, UsageError } from '../../contract/errors.ts';
import type { Cost, ResumeStanding, StatusRow, SurveyCost, TokenUsage } from '../../contract/methods.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { PRICE_TABLE } from '../../io/agent/price-table.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { SessionStore } from '../../persistence/work/session-store.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { costOfRows, today } from '../../actors/usage/cost-of.ts';
import { costText, tokensText } from '../../contract/cost-words.ts';
import { resumeLine } from '../../contract/resume-words.ts';
import type { PageStandings } from '../../actors/review/render-fleet.ts';
import { relaunchWorker, type RelaunchDeps } from '../gates/relaunch.ts';
import type { SessionKeeper } from './session-keeper.ts';

/** What other faces read of sessions and cost. */
export interface SessionFacts {
  /** A gone worker's resume standing (null: not gone, or landed/rejected). */
  standing(v: WorkerViewLike): Promise<ResumeStanding | null>;
  /** Each worker's own cost. */
  workerCosts(): Map<string, Cost>;
  todayCost(): SurveyCost;
  /** The page's words for each worker's cost and a lost worker's resume (actors/review). */
  pageNotes(views: WorkerViewLike[]): Promise<PageStandings>;
}

/** How long the page reuses the workers' costs (it renders on every change of any worker). */
const PAGE_COSTS_MS = 2000;

/** Gone workers a person already decided about: nothing to resume. */
const decided = (v: WorkerViewLike) => v.marks.includes('landed') || v.marks.includes('rejected');

export function sessionHandlers(deps: {
  store: FleetStore;
  fleet: FleetHostApi;
  keeper: SessionKeeper;
  sessions: SessionStore;
  relaunch: RelaunchDeps;
  inLane<T>(id: string, fn: () => Promise<T>): Promise<T>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

  async function standing(v: WorkerViewLike): Promise<ResumeStanding | null> {
    if (v.condition !== 'gone' || decided(v)) return null;
    const intent = deps.store.getWorker(v.id);
    if (!intent) return null;
    const proof = await deps.keeper.proveForResume(intent);
    return proof.ok ? { can: true, session: proof.sessionId, why: null } : { can: false, session: null, why: proof.detail };
  }

  const methods: Pick<MethodTable, 'resume' | 'cost'> = {
    async resume({ ids, allLost, env, envAdd }) {
      const targets = allLost === true ? deps.fleet.views().filter((v) => v.marks.includes('lost')).map((v) => v.id) : (ids ?? []);
      if (allLost !== true && targets.length === 0) throw new UsageError('bad-request', 'which workers? hand resume <id>…, or hand resume --all-lost.', { key: 'ids' });
      const resumed = [];
      const refused = [];
      // One at a time: each resume starts an agent; a fleet of them at once would all start together.
      for (const id of targets) {
        try {
          const r = await deps.inLane(id, () => relaunchWorker(id, { resume: true, ...(env && { env }), ...(envAdd && { envAdd }) }, deps.relaunch));
          resumed.push({ id, session: r.resumedSession ?? '', stage: r.stage, typed: r.firstPrompt });
        } catch (err) {
          refused.push({ id, code: err instanceof HandError ? err.code : 'resume-failed', why: (err as Error).message, instead: `hand relaunch ${id}` });
        }
      }
      return { resumed, refused };
    },

    async cost({ days }) {
      const day = today(now());
      const since = today(now() - ((days ?? 7) - 1) * 86_400_000);
      const budgets = new Map(deps.store.listProjects().map((p) => [p.name, p.budgetUsdPerDay ?? null]));
      const rows = deps.sessions.projectDays(since);
      const groups = new Map<string, typeof rows>();
      for (const r of rows) groups.set(`${r.day}\u0000${r.project}`, [...(groups.get(`${r.day}\u0000${r.project}`) ?? []), r]);
      const projectDays = [...groups.values()].map((g) => ({ project: g[0]!.project, day: g[0]!.day, budgetUsd: budgets.get(g[0]!.project) ?? null, ...costOfRows(g) }));
      const workers = [...deps.sessions.openUsage()].map(([id, r]) => ({ id, project: deps.store.getWorker(id)?.project ?? '', ...costOfRows(r) }));
      const sources = [...new Set(Object.values(PRICE_TABLE).map((p) => p.source))];
      const read = Object.values(PRICE_TABLE).map((p) => p.read).sort().at(-1) ?? '';
      return { today: day, workers, projectDays, todayTotal: costOfRows(rows.filter((r) => r.day === day)), prices: { read, sources } };
    },
  };

  let pageCosts: { at: number; costs: Map<string, Cost> } | null = null;
  /** What the survey, the digest and the page say of sessions and cost (fleet-picture.ts, actors/review). */
  const facts: SessionFacts = {
    async pageNotes(views) {
      if (!pageCosts || now() - pageCosts.at > PAGE_COSTS_MS) pageCosts = { at: now(), costs: facts.workerCosts() };
      const costs = pageCosts.costs;
      const out: PageStandings = new Map();
      for (const v of views) {
        const c = costs.get(v.id);
        const r = v.marks.includes('lost') ? await standing(v).catch(() => null) : null;
        if (c || r) out.set(v.id, { cost: c ? `${costText(c)} · ${tokensText(c)}` : null, resume: r ? resumeLine(v.id, v.stage, r) : null });
      }
      return out;
    },
    standing,
    workerCosts: () => new Map([...deps.sessions.openUsage()].map(([id, rows]) => [id, costOfRows(rows)])),
    todayCost() {
      const day = today(now());
      const rows = deps.sessions.projectDays(day).filter((r) => r.day === day);
      const budgets = new Map(deps.store.listProjects().map((p) => [p.name, p.budgetUsdPerDay ?? null]));
      const names = [...new Set([...rows.map((r) => r.project), ...[...budgets].filter(([, b]) => b !== null).map(([n]) => n)])].sort();
      return {
        today: day,
        total: costOfRows(rows),
        projects: names.map((project) => {
          const c = costOfRows(rows.filter((r) => r.project === project));
          return { project, usd: c.usd, unpriced: c.unpriced, budgetUsd: budgets.get(project) ?? null };
        }),
      };
    },
  };

  return {
    methods,
    facts,
    /** Status rows with the session, a gone worker's resume standing, and the cost (one ledger query for all rows). */
    async decorate<R extends StatusRow>(rows: R[]): Promise<R[]> {
      const usage = deps.sessions.openUsage();
      return Promise.all(
        rows.map(async (r) => {
          const intent = deps.store.getWorker(r.id);
          // Only a gone worker has a resume standing: the rest need no view built again (500 rows).
          const view = r.condition === 'gone' ? deps.fleet.view(r.id) : null;
          const cost = usage.has(r.id) ? costOfRows(usage.get(r.id)!) : null;
          // The witness's reading of a Claude transcript stands only where the ledger has nothing yet.
          const tokens: TokenUsage | null = cost ? { input: cost.input, output: cost.output, cacheRead: cost.cacheRead, cacheCreation: cost.cacheWrite, costUSD: cost.usd, messages: cost.messages } : r.tokens;
          return {
            ...r,
            tokens,
            cost,
            session: intent ? (deps.keeper.sessionOf(intent)?.sessionId ?? null) : null,
            resume: view ? await standing(view) : null,
          };
        }),
      );
    },
  };
}
