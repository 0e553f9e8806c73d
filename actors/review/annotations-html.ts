/**
 * "What you decide on" on a worker's page (issue 40): each item of its review with its id (R-
 * requirements, C- browser checks, Q- questions from the brief; F- files of its diff), the
 * person's notes on it, and a form to write one more — plus one for the worker as a whole. The
 * forms post to the daemon's `annotate` handler, the one `hand annotate` reaches. Every text here
 * (the brief's lines, a worker's file names, the person's own notes) is escaped.
 */
import { ANNOTATION_MAX_CHARS, GENERAL_ITEM, type AnnotationRow, type ReviewItem } from '../../contract/methods/annotations.ts';
import type { ServedMethods } from '../../contract/protocol.ts';
import { esc } from './html.ts';

/** The worker's annotations, taken ones too; [] when the handler is absent or fails (the page still renders). */
export async function annotationsOf(served: ServedMethods, id: string): Promise<AnnotationRow[]> {
  const list = served.annotations;
  if (!list) return [];
  try {
    return (await list({ id, all: true }, { progress: () => {}, signal: new AbortController().signal })) as AnnotationRow[];
  } catch {
    return [];
  }
}

const KIND_HEADINGS: [string, string][] = [['R', 'Requirements'], ['C', 'Browser checks'], ['Q', 'Questions'], ['F', 'Files']];

function notesHtml(notes: AnnotationRow[], item: string): string {
  const mine = notes.filter((n) => n.item === item);
  const rows = mine.map((n) => `<li data-n="${n.n}"><span class="note-text">${esc(n.text)}</span> <span class="muted small">#${n.n} · ${esc(n.at.slice(0, 16).replace('T', ' '))}${n.taken ? ` · taken as ${esc(n.taken.as)}` : ' · new'}</span></li>`);
  return `<ul class="notes" data-notes-for="${esc(item)}" aria-label="Your notes on ${esc(item)}">${rows.join('')}</ul>`;
}

function form(worker: string, item: string, label: string): string {
  const field = `note-${item}`;
  return `<details class="annotate"><summary>Annotate${item === GENERAL_ITEM ? '' : ` ${esc(item)}`}</summary><form data-action="annotate" data-id="${esc(worker)}" data-item="${esc(item)}"><label for="${esc(field)}">${esc(label)}</label><textarea id="${esc(field)}" name="note" rows="3" maxlength="${ANNOTATION_MAX_CHARS}" required placeholder="what should change, in your words"></textarea><button type="submit" class="btn">Save note</button></form></details>`;
}

export function reviewItemsHtml(worker: string, items: ReviewItem[], notes: AnnotationRow[], filesCapped = false): string {
  const groups = KIND_HEADINGS.map(([letter, heading]) => {
    const mine = items.filter((i) => i.id.startsWith(`${letter}-`));
    if (mine.length === 0) return '';
    const rows = mine.map((i) => `<li class="item" id="item-${esc(i.id)}"><span class="item-id">${esc(i.id)}</span> <span class="item-text">${letter === 'F' ? `<code>${esc(i.text)}</code>` : esc(i.text)}</span>${notesHtml(notes, i.id)}${form(worker, i.id, `Your note on ${i.id}`)}</li>`);
    const more = letter === 'F' && filesCapped ? '<p class="muted small">More files than listed here: the diff below has them all.</p>' : '';
    return `<h3>${esc(heading)}</h3><ul class="items">${rows.join('')}</ul>${more}`;
  }).join('');
  const general = `<div class="item general"><span class="item-id">${GENERAL_ITEM}</span> <span class="item-text">The work as a whole</span>${notesHtml(notes, GENERAL_ITEM)}${form(worker, GENERAL_ITEM, `Your note on ${worker} as a whole`)}</div>`;
  return `<section aria-labelledby="h-items"><h2 id="h-items">What you decide on</h2><p class="muted small">Write a note on any item: the Hand is told at once and turns it into a revised brief (before you approve it) or a steer to the worker (after).</p>${groups || '<p class="muted">Its brief lists no requirements, browser checks or questions by item, and its branch changes no files yet.</p>'}${general}</section>
`;
}
