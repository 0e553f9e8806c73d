/**
 * `hand digest`: what a Hand session is told as it starts (workflow §4.4, shortened). What is
 * registered, what is live and its condition, what waits on the person first, the memory budget
 * and index drift. It never fails a session start: each part is guarded, and a broken part is
 * one line saying so while the rest still prints. Kept small (one line per worker): the bench
 * measures it at 20 workers (bench/hand-digest.ts).
 */
import type { AwayAccount, Survey, SurveyCost, SurveyItem, SurveyWorker } from '../../contract/methods.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../../contract/home.ts';
import { ops } from '../hand-ops.ts';
import { call } from '../client.ts';
import { workspacePaths } from '../../io/workspace/layout.ts';
import { memoryReport, type MemoryReport } from '../../io/workspace/memory.ts';
import { indexDrift, type IndexDrift } from '../../io/workspace/data-index.ts';
import type { SetupFacts } from '../../io/agent/setup-facts.ts';
import { costLine, setupLines } from './picture-text.ts';
import { overlapLine } from '../../contract/overlap-words.ts';

export interface Digest {
  contract: 'hand-digest.v1';
  generatedAt: string;
  home: string;
  workspace: string | null;
  fleet: {
    /** defaultAgent: absent or null = claude (said in the line only when a project names another). */
    projects: (Pick<Survey['projects'][number], 'name' | 'posture' | 'yolo' | 'pathExists'> & Partial<Pick<Survey['projects'][number], 'defaultAgent'>>)[];
    workers: Pick<SurveyWorker, 'id' | 'project' | 'host' | 'condition' | 'live' | 'agent' | 'agentVersion'>[];
    waiting: SurveyItem[];
    queue: { ready: number; held: number; blocked: number };
    overlaps: Survey['overlaps'];
    away: Survey['away'];
  } | null;
  /** The usage window nearest its limit, as one line (null when it could not be read). */
  usage: string | null;
  /** What the fleet spent today, per project against its budget (null without a fleet). */
  cost?: SurveyCost | null;
  /** The away account while the journal holds entries the person has not been shown (afk.digest); null otherwise. */
  awayAccount: AwayAccount | null;
  /** Claude Code against the reader's corpus, and missing prerequisites, as the daemon sees them (null without a fleet). */
  setup: SetupFacts | null;
  memory: MemoryReport | null;
  index: IndexDrift | null;
  /** One line per part that could not be read: "<part>: <why>". */
  broken: string[];
}

const oneLine = (err: unknown) => String(err instanceof Error ? err.message : err).replace(/\s+/g, ' ').slice(0, 200);

async function guarded<T>(part: string, broken: string[], fn: () => T | Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    broken.push(`${part}: ${oneLine(err)}`);
    return null;
  }
}

export async function buildDigest(paths: HomePaths, workspace: string | null, now = Date.now(), alreadyBroken: string[] = []): Promise<Digest> {
  const broken = [...alreadyBroken];
  // With no usable state directory there is no daemon to ask (and none must be started there).
  const survey = alreadyBroken.length ? null : await guarded('fleet', broken, () => ops.survey(paths));
  const usage = survey ? await guarded('usage', broken, async () => (await call(paths, 'usage')).line) : null;
  // What happened while the person was away and has not been shown: a new session hears it first.
  const awayAccount = survey ? await guarded('away account', broken, () => call(paths, 'afk.digest')) : null;
  const ws = workspace ? workspacePaths(workspace) : null;
  if (!ws) broken.push('workspace: none found (run hand init, or pass --workspace <dir>)');
  const memory = ws ? await guarded('memory', broken, () => memoryReport(ws)) : null;
  const index = ws ? await guarded('index', broken, () => indexDrift(ws)) : null;
  return {
    contract: 'hand-digest.v1',
    generatedAt: new Date(now).toISOString(),
    home: paths.home,
    workspace: ws?.dir ?? null,
    fleet: survey
      ? {
          projects: survey.projects.map((p) => ({ name: p.name, posture: p.posture, yolo: p.yolo, defaultAgent: p.defaultAgent, pathExists: p.pathExists })),
          // A landed worker is gone from its pane, and landed is what it is (a digest said "gone");
          // a finished one with its report is done (its landing waits), not merely "settled".
          workers: survey.workers.map((w) => ({ id: w.id, project: w.project, host: w.host, condition: w.stage === 'landed' || w.stage === 'done' ? w.stage : w.condition, live: w.live, agent: w.agent, agentVersion: w.agentVersion })),
          waiting: survey.needsYou,
          queue: {
            ready: survey.next.filter((i) => i.kind === 'ready').length,
            held: [...survey.next, ...survey.needsYou].filter((i) => i.kind === 'held' || i.kind === 'held-for-you').length,
            blocked: survey.next.filter((i) => i.kind === 'blocked-item').length,
          },
          overlaps: survey.overlaps ?? [],
          away: survey.away ?? null,
        }
      : null,
    usage,
    cost: survey?.cost ?? null,
    awayAccount: awayAccount ?? null,
    setup: (survey?.setup as SetupFacts | null | undefined) ?? null,
    memory,
    index,
    broken,
  };
}

const MAX_LIST = 25;
function capped(lines: string[]): string[] {
  return lines.length > MAX_LIST ? [...lines.slice(0, MAX_LIST), `... and ${lines.length - MAX_LIST} more`] : lines;
}

export function formatDigest(d: Digest): string {
  const out = [`=== HAND DIGEST ${d.generatedAt.slice(0, 16).replace('T', ' ')} UTC ===`];
  if (d.fleet) {
    const { projects, workers, waiting } = d.fleet;
    out.push(projects.length ? `PROJECTS ${projects.length}: ${projects.map((p) => `${p.name} [${p.posture}${p.yolo ? ', yolo' : ''}${p.defaultAgent ? `, agent ${p.defaultAgent}` : ''}]${p.pathExists ? '' : ' PATH MISSING'}`).join('; ')}` : 'PROJECTS: none registered (annex a repository first)');
    const waits = waiting.filter((w) => w.kind !== 'no-projects');
    out.push(waits.length ? `WAITS ON YOU ${waits.length}:` : 'WAITS ON YOU: nothing');
    out.push(...capped(waits.map((w) => `- ${w.text}`)));
    const counts = new Map<string, string[]>();
    // A worker on another machine is named with it (w1@build): where to look is part of what it is.
    for (const w of workers) counts.set(w.condition, [...(counts.get(w.condition) ?? []), w.host && w.host !== 'local' ? `${w.id}@${w.host}` : w.id]);
    out.push(workers.length ? `WORKERS ${workers.length}: ${[...counts.entries()].map(([c, ids]) => `${c} ${ids.join(' ')}`).join('; ')}` : 'WORKERS: none');
    // Which CLI and release the fleet runs, one line however many workers (a mixed fleet says so).
    const agents = new Map<string, number>();
    for (const w of workers) {
      const key = `${w.agent}${w.agentVersion ? ` ${w.agentVersion}` : ''}`;
      agents.set(key, (agents.get(key) ?? 0) + 1);
    }
    if (workers.length) out.push(`AGENTS: ${[...agents.entries()].map(([a, n]) => `${a} ×${n}`).join('; ')}`);
    const q = d.fleet.queue;
    out.push(q.ready + q.held + q.blocked ? `QUEUE: ${q.ready} ready, ${q.held} held, ${q.blocked} blocked (hand backlog ready)` : 'QUEUE: empty');
    out.push(...capped(d.fleet.overlaps.map((p) => `OVERLAP ${overlapLine(p)}`)));
    if (d.fleet.away?.active) out.push(`AWAY since ${d.fleet.away.since}${d.fleet.away.note ? ` (${d.fleet.away.note})` : ''}: the fleet is held; hand afk off returns the account.`);
  }
  if (d.awayAccount) out.push(...awayLines(d.awayAccount));
  if (d.usage) out.push(`USAGE: ${d.usage}`);
  if (d.cost) out.push(costLine(d.cost));
  out.push(...setupLines(d.setup));
  if (d.memory) {
    const m = d.memory;
    out.push(m.over ? `MEMORY OVER: ${m.total} estimated tokens against a budget of ${m.budget}, over by ${m.overBy}. Load chronicle.` : `MEMORY: ${m.total} of ${m.budget} estimated tokens.`);
  }
  if (d.index) {
    const i = d.index;
    out.push(`INDEX: ${i.indexed} files listed in data/index.md.`);
    // Counts, not lists: the files are one `hand index check` away, and a list grows the digest.
    if (i.unindexed.length) out.push(`UNINDEXED ${i.unindexed.length} files in data/ - hand index check lists them; index each (hand index add).`);
    if (i.stale.length) out.push(`STALE ${i.stale.length} index lines name files that are gone - hand index check lists them, hand index check --prune drops them.`);
  }
  for (const b of d.broken) out.push(`BROKEN ${b}`);
  out.push('=== END HAND DIGEST ===');
  return out.join('\n');
}

/** The away account not yet shown, headed (each worker's words already quoted by the daemon). */
function awayLines(a: AwayAccount): string[] {
  const out = [`WHILE YOU WERE AWAY${a.since ? ` (since ${a.since})` : ''}: ${a.summary}`];
  out.push(...capped(a.waitingOnYou.map((w) => `- waits on you: ${w.text}${w.question ? ` — ${w.question}` : ''}`)));
  // A parked worker is listed once, under its decision; a finished one under its landing (issue 38 item 4).
  out.push(...capped(a.decisions.map((d) => `- decision ${d.key}: ${d.said}${d.options.length ? ` (${d.options.join(' / ')})` : ''} → hand decide ${d.key} "<answer>"`)));
  out.push(...capped(a.readyToLand.map((r) => `- ready to land: ${r.text} → ${r.command}`)));
  out.push(...capped(a.landed.map((l) => `- landed: ${l.text}`)));
  out.push(...capped(a.broke.map((b) => `- broke: ${b.text}`)));
  return out;
}

/** What the SessionStart hook prints: the digest as additional context for the session. */
export function hookOutput(text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}

/** The start of this Hand session, for `hand audience` without --since. */
export function sessionFile(paths: HomePaths): string {
  return join(paths.home, 'hand-session.json');
}

export function recordSessionStart(paths: HomePaths, at: number): void {
  writeFileSync(sessionFile(paths), `${JSON.stringify({ startedAt: at })}\n`);
}
