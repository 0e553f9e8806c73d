/**
 * A dialog caught while it is being drawn. A terminal can be read between two pieces of one
 * frame (a busy machine, a frame larger than one write): the dialog's title is on screen, its
 * choices are not yet. Read as blocked, that screen would wake a person with nothing to answer
 * (`dialog: null`, no fingerprint for `hand answer`); the next piece of the frame, a moment later,
 * brings the choices. So a dialog of a kind that always offers choices, whose options cannot be
 * read and whose end is not on screen either, is not yet a question: the reading is "could not
 * tell", and the rest of the frame decides.
 *
 * A dialog's end is what every complete one in the corpora draws below its words: its closing
 * border, a key hint (the profile's `menu` and `dialog` words), or a list of two options or more.
 * A dialog whose end is drawn but whose choices the reader cannot list (a release drawing them
 * some new way) stays blocked: its state is right even when its options cannot be read, and a
 * person can read the screen.
 */
import type { BlockedReason } from './types.ts';
import type { BlockerRule } from './profile-spec.ts';
import type { ScreenLayout } from './layout.ts';
import { liveRegion } from './live-region.ts';

/** Kinds of dialog that offer choices on every agent whose captures we hold (their corpora, tests/fixtures/*-corpus). */
const OFFERS_CHOICES: ReadonlySet<BlockedReason> = new Set(['permission', 'question', 'folder-trust']);
/** Kinds whose words are a dialog's key hints, drawn at its end. */
const HINTS: ReadonlySet<BlockedReason> = new Set(['menu', 'dialog']);

/** A frame's closing border (`╰───╯`, `└───┘`) or a rule under the words (a menu drawn between two rules). */
const CLOSING_BORDER = /^\s*(?:[╰└]|─{8,}\s*$)/u;
/** An option row, possibly cut mid-row: `❯ 1. Al`, `● 1.`, `  2.`, `› 1.`. */
const OPTION = /^\s*(?:[❯›>▶▸►→●]\s*)?\d{1,2}[.)](?:\s|$)/u;

const needlesOf = (rules: readonly BlockerRule[], is: (reason: BlockedReason) => boolean): string[] =>
  rules.filter((r) => is(r.reason)).flatMap((r) => [...r.anyOf, ...(r.allOf ?? [])]);

/** The dialog's words are on screen (reason `reason`), its options cannot be read, and its end is not drawn yet. */
export function dialogStillDrawing(layout: ScreenLayout, rules: readonly BlockerRule[], reason: BlockedReason): boolean {
  if (!OFFERS_CHOICES.has(reason)) return false;
  const words = needlesOf(rules, (r) => r === reason);
  const hints = needlesOf(rules, (r) => HINTS.has(r));
  const rows = liveRegion(layout);
  const first = rows.findIndex((row) => words.some((w) => row.includes(w)));
  if (first === -1) return false;
  let options = 0;
  // From the words' own row: some of the words that name a dialog are an option's label.
  for (let i = first; i < rows.length; i++) {
    const row = rows[i]!;
    if (OPTION.test(row) && ++options >= 2) return false;
    if (i > first && (CLOSING_BORDER.test(row) || hints.some((h) => row.includes(h)))) return false;
  }
  return true;
}
