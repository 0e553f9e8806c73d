/**
 * What a blocked worker asks — its question and its options — lifted once, for every face
 * (issue 38 item 11). For one screen, `wait --json`'s question was null for a Gemini worker and
 * carried a "Reason: " prefix for a Codex one while the dialog's own question was clean; `hand
 * wait`, `watch --needs-you`, survey and the page each lifted it their own way.
 *
 * The agent's own reader is the authority: where it read the screen as a dialog (its profile
 * knows that agent's drawing), its question and numbered options are what is asked. Only where no
 * dialog was read — a question in prose, a release the profile does not know — the screen's
 * generic lines stand in. Raw words out: each face quotes them as the worker's (contract/worker-words.ts).
 */
import type { DialogReading } from './types.ts';
import { optionsOf, questionOf } from './question-text.ts';

export interface Asked {
  question: string | null;
  /** `1. SQLite`, … (the number as the dialog shows it, then the label). */
  options: string[];
}

export function askedOf(dialog: Pick<DialogReading, 'question' | 'options'> | null | undefined, screen: string | null): Asked {
  if (dialog) return { question: dialog.question || null, options: dialog.options.map((o) => `${o.n}. ${o.label}`) };
  if (screen === null) return { question: null, options: [] };
  return { question: questionOf(screen), options: optionsOf(screen) };
}
