/**
 * Background work Claude Code shows still running after a turn (issue 43): a Bash call with
 * `run_in_background`, a monitor, a background agent. Measured on 2.1.332 against the fake API
 * (docs/2026-12-06-background-work-is-work.md): the finished turn's line says it, live, until the
 * last task ends —
 *   `✻ Baked for 0s · done 4:21 AM · 1 shell still running`
 * and the mode line under the box carries the same count as a pill —
 *   `⏵⏵ auto mode on · 1 shell · ← for agents · ↓ to manage`.
 * The words are the binary's own summary: `N shell(s)`, `N monitor(s)` (joined by `, ` when a
 * run has both), `N background agent(s)`, `N background task(s)` (a mix), `N MCP task(s)`,
 * `N team(s)`, `N … workflow(s)`, `N cloud session(s)`. Its own housekeeping (`dreaming`,
 * `saving memories`, `auto-mode scan`) names no count and is not the worker's work.
 */
import { lastRowsBefore, type ScreenLayout } from '../layout.ts';

const KINDS = String.raw`(?:shells?|monitors?|background agents?|background tasks?|MCP tasks?|teams?|(?:background |cloud )?(?:dynamic )?workflows?|cloud sessions?|Artifact comment monitors?)`;
const COUNTED = new RegExp(String.raw`\b([1-9]\d{0,3}) ${KINDS}\b`, 'g');
/** The finished turn's line with its live suffix. */
const STILL_RUNNING = /^\s*[·✢*✶✻✽✳∗✷✸✹✺]\s+\S.*? · ((?:[^·]+?)) still running\s*$/u;
/** A pill of the mode line: ` · 1 shell · `, at the line's end too. */
const FOOTER_PILL = new RegExp(String.raw`(?:^|·)\s*((?:[1-9]\d{0,3} ${KINDS}(?:, )?)+)\s*(?=·|$)`, 'u');

function count(summary: string): number {
  let n = 0;
  for (const m of summary.matchAll(COUNTED)) n += Number(m[1]);
  return n;
}

/** How many background tasks the screen shows running (0: none shown). */
export function claudeBackgroundTasks(layout: ScreenLayout): number {
  const { boxRow, boxLastRow, texts } = layout;
  if (boxRow === -1) return 0;
  let shown = 0;
  // The last turn's line above the box (the first met going up): an earlier turn's is history.
  for (const row of lastRowsBefore(layout, boxRow, 10).reverse()) {
    const m = STILL_RUNNING.exec(row);
    if (m) {
      shown = count(m[1]!);
      break;
    }
    if (/^\s*[·✢*✶✻✽✳∗✷✸✹✺]\s+\S.*? for \d/u.test(row)) break;
  }
  // The mode line under the box.
  for (const row of texts.slice(boxLastRow + 1)) {
    const pill = FOOTER_PILL.exec(row.trim());
    if (pill && /⏵⏵|⏸|mode on|for shortcuts|to manage/.test(row)) shown = Math.max(shown, count(pill[1]!));
  }
  return shown;
}
