/**
 * Answering an open decision from the review page (issue 16). The page lists the worker's open
 * decisions through the daemon's own `decisions` handler and posts to its `decide` handler — the
 * ones `hand decisions` and `hand decide` reach — so the page and the CLI share one
 * implementation and one set of refusals. A worker that shows a Waiting-on line whose record the
 * work watch has not written yet gets the form under the key that record will have.
 */
import { decisionKey } from '../../persistence/work/decision-store.ts';
import type { WorkerViewLike } from '../fleet-api.ts';
import type { ServedMethods } from '../../contract/protocol.ts';
import { esc } from './html.ts';

export interface PageDecision {
  key: string;
  question: string;
  options: string[];
}

/** The worker's open decisions; [] when the decisions handler is absent or fails (the page still renders). */
export async function openDecisionsOf(served: ServedMethods, v: WorkerViewLike): Promise<PageDecision[]> {
  const list = served.decisions;
  if (!list) return [];
  try {
    const rows = (await list({ all: true }, { progress: () => {}, signal: new AbortController().signal })).filter((d) => d.worker === v.id);
    const open = rows.filter((d) => d.state === 'open').map((d) => ({ key: d.key, question: d.question, options: d.options }));
    if (v.waitingOn) {
      const key = decisionKey(v.id, v.waitingOn);
      if (!rows.some((d) => d.key === key)) open.push({ key, question: v.waitingOn, options: [] });
    }
    return open;
  } catch {
    return [];
  }
}

/** One form per decision: an answer (options offered as suggestions), or a decline with the reason. */
export function decisionForms(id: string, decisions: PageDecision[]): string {
  return decisions
    .map((d, i) => {
      const k = esc(d.key);
      const field = `answer-${i}`;
      const list = d.options.length ? `<datalist id="${field}-options">${d.options.map((o) => `<option value="${esc(o)}"></option>`).join('')}</datalist>` : '';
      return `<form class="decide" data-action="decide" data-id="${esc(id)}" data-key="${k}" aria-label="Decision ${k}"><p class="question">${esc(d.question)}${d.options.length ? ` <span class="muted small">(${d.options.map(esc).join(' · ')})</span>` : ''}</p><label for="${field}">Answer or reason</label><input id="${field}" name="answer" required autocomplete="off"${list ? ` list="${field}-options"` : ''} placeholder="the answer, or why it is declined">${list}<button type="submit" class="btn primary" name="verb" value="answer">Answer</button><button type="submit" class="btn" name="verb" value="decline">Decline</button></form>`;
    })
    .join('');
}
