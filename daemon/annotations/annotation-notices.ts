/**
 * The person's new annotations as the Hand's wake hears them (`hand watch --needs-you`, issue 40):
 * a watch sends every annotation not taken yet when it starts, then one line per new one. Taking
 * it (`hand annotations take`) is what closes it: nothing else to clear, nothing said twice to the
 * same watch. The line quotes the person's words as theirs, on one line, bounded.
 */
import type { NeedsYouEvent } from '../../contract/methods.ts';
import type { Annotation, AnnotationStore } from '../../persistence/annotation-store.ts';
import { annotationRow } from './annotation-handlers.ts';

export interface AnnotationNotices {
  add(a: Annotation): void;
  /** The annotations not taken yet, oldest first, as wake events. */
  open(): NeedsYouEvent[];
  subscribe(fn: (e: NeedsYouEvent) => void): () => void;
}

export function annotationEvent(a: Annotation, project: string): NeedsYouEvent {
  const row = annotationRow(a);
  const command = `hand annotations ${a.worker}`;
  return { worker: a.worker, project, need: 'annotated', line: `${row.said.replace(/^the person wrote on/, 'the person annotated')} → ${command}`, question: null, options: [], fingerprint: null, command, at: row.at };
}

export function createAnnotationNotices(store: Pick<AnnotationStore, 'list'>, projectOf: (worker: string) => string): AnnotationNotices {
  const listeners = new Set<(e: NeedsYouEvent) => void>();
  return {
    add(a) {
      const e = annotationEvent(a, projectOf(a.worker));
      for (const fn of listeners) fn(e);
    },
    open: () => store.list({}).map((a) => annotationEvent(a, projectOf(a.worker))),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
