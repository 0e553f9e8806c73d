/**
 * The person's annotations (issue 40) as request handlers: `annotate` (the review page, or the
 * person's `hand annotate`: never the Hand's, contract/methods.ts PERSON_ONLY_METHODS),
 * `annotations` (what is new, for the Hand to poll) and `annotations.take` (the Hand acted on
 * them: a revised brief, a steer, or an answer in chat). Each new annotation wakes the Hand
 * through `hand watch --needs-you` (annotation-notices.ts).
 *
 * The text is the person's, but it travels on: into a revised brief and, as a steer, typed into a
 * worker. So it is held to what `hand send` types — no control character, nothing invisible — and
 * to ANNOTATION_MAX_CHARS; the page escapes it like everything else it shows.
 */
import { RefusedError } from '../../contract/errors.ts';
import { unknownWorker } from '../../contract/refusals.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { GENERAL_ITEM, type AnnotatedPart, type AnnotationRow } from '../../contract/methods/annotations.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { Annotation, AnnotationStore } from '../../persistence/annotation-store.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { reviewItemsOf } from '../../actors/review/review-items.ts';
import type { AnnotationNotices } from './annotation-notices.ts';

/** What a note is on, from the worker's stage: its brief before approval, its landing at the gate, its work otherwise. */
export function partOf(v: Pick<WorkerViewLike, 'stage' | 'marks'> | null): AnnotatedPart {
  if (!v) return 'work';
  if (v.stage === 'gate.awaitingBriefApproval' || v.marks.includes('brief-gate')) return 'brief';
  if (v.marks.includes('landing-gate')) return 'landing';
  return 'work';
}

/** The person's words in one bounded line (a line of a wake, never a second line of its own). */
export function flatWords(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

function onWhat(a: Pick<Annotation, 'worker' | 'item' | 'itemText' | 'part'>): string {
  const whole = a.part === 'brief' ? `${a.worker}'s brief` : a.part === 'landing' ? `${a.worker}'s landing` : `${a.worker}'s work`;
  if (a.item === GENERAL_ITEM) return whole;
  return `${whole}, ${a.item}${a.itemText ? ` (${flatWords(a.itemText, 80)})` : ''}`;
}

/** What the Hand does with a note, by what it is on (the muster skill says the same). */
function nextStep(a: Annotation): string {
  const take = (as: string) => `then hand annotations take ${a.n} --as ${as}`;
  if (a.part === 'brief') {
    return `revise the brief with it before anything starts: write the revised brief, hand reject ${a.worker} --reason "revised brief follows", dispatch ${a.worker} again with it, ${take('revised-brief')}`;
  }
  return `steer ${a.worker} with it (hand send ${a.worker} "<the person's words>"${a.part === 'landing' ? `, or hand reject ${a.worker} --reason "<the person's words>" at its landing gate` : ''}), ${take('steer')}`;
}

export function annotationRow(a: Annotation): AnnotationRow {
  return {
    n: a.n,
    worker: a.worker,
    item: a.item,
    itemText: a.itemText,
    on: a.part,
    stage: a.stage,
    text: a.text,
    said: `the person wrote on ${onWhat(a)}: ${flatWords(a.text)}`,
    via: a.via,
    at: new Date(a.createdAt).toISOString(),
    taken: a.taken ? { at: new Date(a.taken.at).toISOString(), as: a.taken.as, note: a.taken.note } : null,
    next: a.taken ? `taken (${a.taken.as})` : nextStep(a),
  };
}

export interface AnnotationDeps {
  annotations: AnnotationStore;
  store: Pick<FleetStore, 'getWorker'>;
  fleet: Pick<FleetHostApi, 'view'>;
  notices: AnnotationNotices;
}

export function annotationHandlers(deps: AnnotationDeps): Pick<MethodTable, 'annotate' | 'annotations' | 'annotations.take'> {
  return {
    async annotate({ id, item, text, via }) {
      const row = deps.store.getWorker(id);
      if (!row) throw unknownWorker(id);
      const view = deps.fleet.view(id) ?? null;
      let itemText: string | null = null;
      if (item !== GENERAL_ITEM) {
        const { items } = await reviewItemsOf(row);
        const found = items.find((i) => i.id === item);
        if (!found) {
          const ids = items.map((i) => i.id);
          throw new RefusedError(
            'unknown-item',
            `${id} has no item ${item} to annotate; nothing was written. Its items: ${ids.length ? ids.join(', ') : 'none (its brief lists no requirements, browser checks or questions, and its branch changes no files yet)'}; or write on the worker as a whole with ${GENERAL_ITEM}.`,
            { id, item, items: ids },
          );
        }
        itemText = found.text.slice(0, 500);
      }
      const a = deps.annotations.add({ worker: id, item, itemText, part: partOf(view), stage: view?.stage ?? 'unknown', text, via: via ?? 'cli' });
      deps.notices.add(a);
      return annotationRow(a);
    },
    async annotations({ id, sinceMs, all }) {
      if (id !== undefined && !deps.store.getWorker(id)) throw unknownWorker(id);
      return deps.annotations.list({ ...(id !== undefined && { worker: id }), ...(sinceMs !== undefined && { sinceMs }), all: all === true }).map(annotationRow);
    },
    async 'annotations.take'({ n, as, note }) {
      const missing = n.filter((k) => !deps.annotations.get(k));
      if (missing.length) {
        throw new RefusedError('unknown-annotation', `no annotation ${missing.join(', ')}; nothing was taken. hand annotations lists the new ones with their numbers.`, { missing });
      }
      return deps.annotations.take(n, as, note ?? null).map(annotationRow);
    },
  };
}
