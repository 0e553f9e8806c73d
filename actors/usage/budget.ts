/**
 * A project's daily budget (issue 41 item 4): `hand project set <p> --budget 20usd/day`. What its
 * workers spent today (the usage ledger, at the price table) at or above the budget refuses a
 * dispatch into it, as the usage window does at 90 %; from 80 % a dispatch goes on with a warning.
 * Tokens of a model the table has no price for cannot count: the warning says the figure is
 * short by them, never guesses them.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { ProjectRecord } from '../../contract/methods.ts';
import type { SessionStore } from '../../persistence/work/session-store.ts';
import { costOfRows, today } from './cost-of.ts';
import { costText } from '../../contract/cost-words.ts';

export const BUDGET_WARN_AT = 0.8;

/** `20usd/day`, `20`, `$12.50/day`, `12.5 usd` → 20 / 12.5; anything else null. */
export function parseBudget(text: string): number | null {
  const m = /^\s*\$?\s*(\d+(?:\.\d+)?)\s*(?:usd)?\s*(?:\/\s*day)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Today's spend of a project: its cost, and the line a warning or a refusal quotes. */
export function spentToday(sessions: SessionStore, project: string, now = Date.now()) {
  const day = today(now);
  return costOfRows(sessions.projectDays(day).filter((r) => r.project === project && r.day === day));
}

/** Refuses at or above the budget; the warnings to carry from 80 %. No budget: nothing. */
export function budgetAllowsDispatch(sessions: SessionStore, project: ProjectRecord | null, now = Date.now()): string[] {
  const budget = project?.budgetUsdPerDay;
  if (!project || !budget) return [];
  const spent = spentToday(sessions, project.name, now);
  const usd = spent.usd ?? 0;
  const unknown = spent.unpriced.length ? ` (and tokens of ${spent.unpriced.join(', ')}, which the price table cannot price, are not in that figure)` : '';
  const line = `project ${project.name} has spent ${costText(spent)} of its $${budget.toFixed(2)} a day today`;
  if (usd >= budget) {
    throw new RefusedError('budget-spent', `refused: ${line}${unknown}; nothing was dispatched. Wait for tomorrow, or raise the budget (hand project set ${project.name} --budget <n>usd/day).`, { project: project.name, spentUsd: usd, budgetUsd: budget });
  }
  const warnings: string[] = [];
  if (usd >= budget * BUDGET_WARN_AT) warnings.push(`${line} (${Math.round((usd / budget) * 100)} %)${unknown}`);
  else if (unknown) warnings.push(`${line}${unknown}`);
  return warnings;
}
