/** Readable text for `hand survey` and `hand audience` (their --json is the daemon's object). */
import type { Audience, Survey, SurveyCost } from '../../contract/methods.ts';
import { costText, tokensText } from '../../contract/cost-words.ts';
import type { SetupFacts } from '../../contract/methods/gates.ts';
import { overlapLine } from '../../contract/overlap-words.ts';

const SECTIONS: [key: 'needsYou' | 'recentlyLanded' | 'underway' | 'next', title: string, empty: string][] = [
  ['needsYou', 'Needs you', 'Nothing needs your action right now.'],
  ['recentlyLanded', 'Recently landed', 'Nothing landed recently.'],
  ['underway', 'Underway', 'Nothing is underway.'],
  ['next', 'Next', 'Nothing is queued.'],
];

export function formatSurvey(s: Survey): string {
  const out: string[] = [];
  for (const [key, title, empty] of SECTIONS) {
    const items = s[key];
    out.push(`${title}:`, ...(items.length ? items.map((i) => `- ${i.text}`) : [`  ${empty}`]));
  }
  // Absent from a survey of an older daemon: said only when there is one.
  if (s.overlaps?.length) out.push('Overlaps:', ...s.overlaps.map((p) => `- ${overlapLine(p)}`));
  if (s.away?.active) out.push(`You are away since ${s.away.since}${s.away.note ? ` (${s.away.note})` : ''}: no queued item starts; hand afk off returns the account.`);
  if (s.cost) out.push(costLine(s.cost));
  out.push(...setupLines(s.setup));
  for (const d of s.diagnostics) out.push(`! ${d}`);
  return out.join('\n');
}

/** The fleet's spend today in one line (survey and digest): the total, then each project that spent or has a budget. */
export function costLine(c: SurveyCost): string {
  const projects = c.projects.map((p) => `${p.project} ${costText(p)}${p.budgetUsd ? ` of $${p.budgetUsd.toFixed(2)}/day` : ''}`);
  return `COST today: ${costText(c.total)} · ${tokensText(c.total)}${projects.length ? ` (${projects.join('; ')})` : ''}`;
}

export function formatAudience(a: Audience): string {
  const workers = a.workers;
  if (workers.length === 0) return `Nothing happened since ${a.since}.`;
  const out = [`Since ${a.since}:`];
  for (const w of workers) {
    out.push(`${w.id}:`);
    for (const e of w.events) out.push(`  ${e.at.slice(11, 19)} ${e.words}${e.count > 1 ? ` (x${e.count})` : ''}`);
  }
  return out.join('\n');
}

/** The version line, one line per missing prerequisite and per agent not calibrated at its installed version (survey and digest say them alike). */
export function setupLines(setup: SetupFacts | null | undefined): string[] {
  if (!setup) return [];
  const missing = setup.missing ?? [];
  // A missing binary is said once, as a missing prerequisite, not again as the version line.
  const version = setup.claude?.standing === 'missing' ? [] : [`CLAUDE CODE: ${setup.claude?.line}`];
  // An agent read right at its installed version goes unsaid; one never calibrated at it, or failed, is said.
  const calibration = (setup.calibration ?? []).filter((c) => c.standing !== 'calibrated').map((c) => `CALIBRATION: ${c.line}`);
  return [...missing.map((m) => `MISSING ${m.name}: ${m.detail}; fix: ${m.fix}`), ...version, ...calibration];
}
