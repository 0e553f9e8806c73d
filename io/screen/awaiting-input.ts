/**
 * Is a person's answer awaited: a menu, permission prompt, question or startup dialog on the
 * live part of the viewport (control-plane §3.2). Signatures are ordinal, case-sensitive
 * substrings; the profile orders them from most to least specific so the first match names the
 * reason. A numbered menu with a cursor is a dialog by its shape alone (reason from the words
 * when they say more, else `menu`). A blank or failed screen is never awaiting input.
 */
import type { BlockedReason } from './types.ts';
import type { BlockerRule } from './profile-spec.ts';
import type { ScreenLayout } from './layout.ts';
import { liveRegion } from './live-region.ts';
import { hasAnswerOptions, hasCursorChoice, hasNumberedMenu, hasQuestionOverOptions } from './menu-shape.ts';

function matches(text: string, rule: BlockerRule): boolean {
  if (rule.noneOf !== undefined) {
    for (const needle of rule.noneOf) if (text.includes(needle)) return false;
  }
  if (rule.allOf !== undefined) {
    for (const needle of rule.allOf) if (!text.includes(needle)) return false;
  }
  for (const needle of rule.anyOf) if (text.includes(needle)) return true;
  return false;
}

/** The reason of the first matching rule over the live rows, or null when nothing is awaited. */
export function findBlocker(layout: ScreenLayout, rules: readonly BlockerRule[]): BlockedReason | null {
  const rows = liveRegion(layout);
  if (rows.length === 0) return null;
  // Joined with \n so a phrase never matches across two rows.
  const text = rows.join('\n');
  for (const rule of rules) if (!rule.needsMenu && matches(text, rule)) return rule.reason;
  const numbered = hasNumberedMenu(rows) || hasQuestionOverOptions(rows) || hasAnswerOptions(rows);
  if (!numbered && !hasCursorChoice(rows)) return null;
  for (const rule of rules) if (rule.needsMenu && matches(text, rule)) return rule.reason;
  // An unnumbered choice counts only when its words say it asks something.
  return numbered ? 'menu' : null;
}
