/**
 * `hand approve` in text mode, in words: the landing's outcome used to be printed as the raw
 * JSON of its detail (`landed {"posture":…}`), which a person has to decode. JSON stays for --json.
 */
type Obj = Record<string, any>;

const short = (sha: unknown) => (typeof sha === 'string' ? sha.slice(0, 10) : '?');

/** One line for what the landing did, per posture. */
export function landedText(landed: Obj): string {
  if (landed.pr) return `landed: pull request ${landed.pr} opened${landed.pushed === false ? ' (the branch is not on origin yet)' : ''}`;
  if (landed.target) return `landed: ${landed.target} fast-forwarded from ${short(landed.from)} to ${short(landed.to)} (${landed.via})`;
  return `landed (${landed.posture ?? 'posture unknown'})`;
}

function teardownText(t: Obj | undefined): string[] {
  if (!t) return [];
  if (t.done) return ['  worktree and pane removed'];
  return [`  worktree kept: ${t.reason ?? 'see hand status'}`];
}

/** The whole text answer of `hand approve` (a landing, or the brief gate's "what exists now"). */
export function approveText(id: string, r: Obj): string {
  if (r.landed) {
    const warnings = ((r.landed.warnings as string[] | undefined) ?? []).map((w) => `  warning: ${w}`);
    return [`${id}: approved · ${landedText(r.landed)}`, ...warnings, ...teardownText(r.teardown)].join('\n');
  }
  const head = `${id}: approved · now ${r.stage ?? r.gate ?? 'running'}`;
  const c = r.created as Record<string, string | null | boolean> | undefined;
  if (!c) return [head, ...teardownText(r.teardown)].join('\n');
  const made = [c.worktree ? `  created worktree ${c.worktree}` : '  no worktree yet', c.branch ? `  created branch   ${c.branch}` : '  no branch yet', c.pane ? `  started          ${c.pane}` : '  no terminal yet'];
  return [head, ...made, ...(c.problem ? [`  problem: ${c.problem}`] : []), ...(c.stillPreparing ? ['  (still preparing: hand status shows the rest)'] : [])].join('\n');
}
