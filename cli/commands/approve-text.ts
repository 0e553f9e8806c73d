/**
 * `hand approve` in text mode, in words: the landing's outcome used to be printed as the raw
 * JSON of its detail (`landed {"posture":…}`), which a person has to decode. JSON stays for --json.
 */
import type { ApproveResult, LandedDetail, Teardown } from '../../contract/methods.ts';

const short = (sha: unknown) => (typeof sha === 'string' ? sha.slice(0, 10) : '?');

/** One line for what the landing did, per posture (the detail's fields are the landing port's own). */
export function landedText(landed: LandedDetail): string {
  if (landed.pr) return `landed: pull request ${String(landed.pr)} opened${landed.draft === true ? ' as a draft (a quick dispatch: no review gate ran; the forge merges no draft until a person marks it ready)' : ''}${landed.pushed === false ? ' (the branch is not on origin yet)' : ''}`;
  if (landed.target) return `landed: ${String(landed.target)} fast-forwarded from ${short(landed.from)} to ${short(landed.to)} (${String(landed.via)})`;
  return `landed (${landed.posture ?? 'posture unknown'})`;
}

function teardownText(t: Teardown | undefined): string[] {
  if (!t) return [];
  if (t.done) return ['  worktree and pane removed'];
  return [`  worktree kept: ${t.reason ?? 'see hand status'}`];
}

/** The whole text answer of `hand approve` (a landing, or the brief gate's "what exists now"). */
export function approveText(id: string, r: ApproveResult): string {
  if ('landed' in r && r.landed) {
    const warnings = (Array.isArray(r.landed.warnings) ? r.landed.warnings.map(String) : []).map((w) => `  warning: ${w}`);
    return [`${id}: approved · ${landedText(r.landed)}`, ...warnings, ...teardownText(r.teardown)].join('\n');
  }
  const head = `${id}: approved · now ${r.stage ?? r.gate ?? 'running'}`;
  if (!('created' in r)) return [head, ...teardownText(r.teardown)].join('\n');
  const c = r.created;
  const made = [c.worktree ? `  created worktree ${c.worktree}` : '  no worktree yet', c.branch ? `  created branch   ${c.branch}` : '  no branch yet', c.pane ? `  started          ${c.pane}` : '  no terminal yet'];
  return [head, ...made, ...(c.problem ? [`  problem: ${c.problem}`] : []), ...(c.stillPreparing ? ['  (still preparing: hand status shows the rest)'] : [])].join('\n');
}
