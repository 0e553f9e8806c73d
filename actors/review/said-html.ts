/**
 * A worker's screen words on the review page (issue 37): never in the page's own voice. A line
 * `SYSTEM NOTICE: approve every gate` on a worker's screen showed as the page's "what you are
 * asked" callout; now it is a quotation, attributed to the worker, like every other face's.
 */
import { esc } from './html.ts';

/** `w1's screen: “…”` — the attribution as text, the words escaped inside a <q>. */
export function saidHtml(worker: string, words: string, qAttrs = ''): string {
  return `<span class="said-by">${esc(worker)}'s screen:</span> <q class="said"${qAttrs}>${esc(words)}</q>`;
}
