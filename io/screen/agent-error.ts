/**
 * A turn that ended in an API error or a usage limit (issue 21): Claude Code prints the error
 * as the last entry of the turn, then returns to an empty box — which otherwise reads as a
 * finished turn. Read structurally: only the last turn (below its echoed prompt) and only its
 * entries nearest the live box count, so an error quoted in an earlier turn or mid-transcript
 * is history. A line still counting retries ("Retrying in 4s · attempt 3/10") is not an end.
 */
import { isRule, type ScreenLayout } from './layout.ts';
import { lastTurnStart } from './live-region.ts';

/** How many non-blank rows above the box the turn's last entry may span (a wrapped message). */
const NEAR_BOX_ROWS = 4;
/** The kinds of error that end a turn: the API's (after retries) and the plan's usage limit. */
const ENDS_A_TURN = /\bAPI Error\b|\busage limit\b|\bhit your (?:usage |weekly |session )?limit\b|\b(?:5-hour|five-hour|weekly|session|Opus) limit reached\b|\brate limit reached\b|\bout of (?:extra )?usage\b/i;
/** Still retrying: the turn is not over. */
const RETRYING = /\bRetrying in\b|\battempt \d+\s*\/\s*\d+/i;
/** An entry's marker: a reply or tool bullet, or the result elbow under it. */
const ENTRY = /^\s*(?:[●⏺]|⎿)\s+/;

/** The error message that ended the last turn, or null (no live box, no error near it, or still retrying). */
export function turnEndedInError(layout: ScreenLayout): string | null {
  const texts = layout.texts;
  if (layout.boxRow < 0) return null;
  let top = layout.boxRow;
  if (top > 0 && isRule(texts[top - 1]!)) top--;
  const start = lastTurnStart(texts, top);
  const near: string[] = [];
  for (let r = top - 1; r >= start && near.length < NEAR_BOX_ROWS; r--) {
    const t = texts[r]!.trim();
    if (t !== '') near.push(texts[r]!);
  }
  if (near.some((t) => RETRYING.test(t))) return null;
  for (const row of near) {
    if (ENDS_A_TURN.test(row)) return row.replace(ENTRY, '').trim();
  }
  return null;
}
