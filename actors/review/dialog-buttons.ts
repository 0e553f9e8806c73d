/**
 * A live dialog's options as buttons on the review page (issue 21), so a person on a phone can
 * answer the question the notification told them about. Each button posts to the daemon's
 * `answer` handler — the one `hand answer` reaches — with the option and the fingerprint of the
 * dialog the page showed: a screen that moved on is refused there, exactly as for the CLI.
 */
import type { WorkerViewLike } from '../fleet-api.ts';
import { esc } from './html.ts';
import { saidHtml } from './said-html.ts';

export function dialogButtons(v: WorkerViewLike): string {
  const d = v.dialog;
  if (!d || d.options.length === 0) return '';
  const id = esc(v.id);
  const fp = esc(d.fingerprint);
  const buttons = d.options.map((o) =>
    `<button type="button" class="btn${o.n === d.cursor ? ' current' : ''}" data-action="answer" data-id="${id}" data-option="${o.n}" data-fingerprint="${fp}">${o.n}. <q class="said">${esc(o.label)}</q></button>`,
  );
  // The question and the labels are the worker's words: attributed to its screen (issue 37).
  const question = d.question ? `<p class="question">${saidHtml(v.id, d.question)}</p>` : `<p class="question"><span class="said-by">${id}'s screen offers:</span></p>`;
  return `<div class="dialog-answer" role="group" aria-label="Answer the dialog on ${id}'s screen">${question}${buttons.join('')}</div>`;
}
