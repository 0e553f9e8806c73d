/**
 * The review surface's feedback on the wire (issue 40): what the person decides on is shown with
 * per-item ids — R- requirements and Q- open questions from the brief, C- browser checks, F- files
 * of the diff — and the person annotates any of them (or the worker as a whole, `general`) on the
 * page or with `hand annotate`. The Hand polls what is new (`annotations`), turns it into a
 * revised brief (before the brief is approved) or a steer (after), and marks it taken.
 */
import type { TakenAs } from '../vocabulary.ts';

/** The kinds of item a worker's review shows, by the letter of their ids. */
export const ITEM_KINDS = { R: 'requirement', F: 'file', C: 'browser check', Q: 'question' } as const;
export type ItemLetter = keyof typeof ITEM_KINDS;

/** A note on the worker as a whole rather than one item. */
export const GENERAL_ITEM = 'general';

/** `R-001`, `F-012`, `C-003`, `Q-002`, or `general`. */
export const ITEM_ID = /^(?:[RFCQ]-\d{3,4}|general)$/;

/** The most a person's annotation holds: a note on one item, not a second brief. */
export const ANNOTATION_MAX_CHARS = 4000;

/** One item the person may annotate. */
export interface ReviewItem {
  id: string;
  kind: (typeof ITEM_KINDS)[ItemLetter];
  /** What the item says: the brief's line, or the file's path (a worker's name for it). */
  text: string;
}

/** What an annotation is on, from the worker's stage when it was written. */
export type AnnotatedPart = 'brief' | 'landing' | 'work';

export interface AnnotateParams {
  /** The worker. */
  id: string;
  /** The item's id (`R-001`, …) or `general`. */
  item: string;
  /** The person's words. */
  text: string;
  /** Where it was written (the page sets `page`; default `cli`). */
  via?: 'page' | 'cli';
}

export interface AnnotationRow {
  /** The annotation's number (`hand annotations take <n>`). */
  n: number;
  worker: string;
  item: string;
  /** What the item said when the person wrote on it (null for `general`). */
  itemText: string | null;
  /** The brief before it was approved, the landing at its gate, the work while it runs. */
  on: AnnotatedPart;
  /** The worker's stage when it was written. */
  stage: string;
  /** The person's words, as they wrote them. */
  text: string;
  /** One line for the Hand: whose words, on what. */
  said: string;
  /** Where it came from: the review page or the person's own `hand annotate`. */
  via: 'page' | 'cli';
  at: string;
  taken: { at: string; as: TakenAs; note: string | null } | null;
  /** What the Hand does with it next (a revised brief before approval, a steer after). */
  next: string;
}

export interface AnnotationsParams {
  /** One worker's (absent: every worker's). */
  id?: string;
  /** Written at or after this time (epoch ms). */
  sinceMs?: number;
  /** Taken ones too (default: only the new ones). */
  all?: boolean;
}

export interface AnnotationsTakeParams {
  /** The annotations' numbers. */
  n: number[];
  as: TakenAs;
  note?: string;
}
