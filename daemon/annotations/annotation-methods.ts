/**
 * The person's annotations on what they decide on, and the Hand taking them (issue 40), each with
 * its edge parser and its handler (method-entry.ts; the bodies are in annotation-handlers.ts).
 */
import { UsageError } from '../../contract/errors.ts';
import { ANNOTATION_MAX_CHARS, GENERAL_ITEM, ITEM_ID, TAKEN_AS } from '../../contract/methods/annotations.ts';
import { isOneOf } from '../../contract/vocabulary.ts';
import type { WireObject } from '../../contract/protocol.ts';
import { refuseInvisible } from '../../io/text/sendable-text.ts';
import type { FamilyTable } from '../method-entry.ts';
import { flag, idParam, opt, str, text } from '../params.ts';

/** An item id as the review shows it (R-001, F-002, C-003, Q-004) or `general`. */
function annotationItem(p: WireObject): string {
  const item = typeof p.item === 'string' ? p.item.trim() : '';
  if (!ITEM_ID.test(item)) {
    throw new UsageError('bad-item', `${JSON.stringify(typeof p.item === 'string' ? p.item.slice(0, 40) : p.item)} is not an item of a review: an id as the page shows it (R-001 a requirement, F-001 a file, C-001 a browser check, Q-001 a question) or ${GENERAL_ITEM}.`, { key: 'item' });
  }
  return item;
}

/**
 * The person's words: they travel on into a revised brief and, as a steer, into a worker's box,
 * so they are held to what hand send types (no control character but newline and tab, nothing
 * invisible) and to ANNOTATION_MAX_CHARS. A page's CRLF is one newline.
 */
function annotationText(p: WireObject): string {
  const raw = typeof p.text === 'string' ? p.text.replace(/\r\n?/g, '\n') : '';
  if (raw.trim() === '') throw new UsageError('empty-annotation', 'an annotation needs words: what should change, in your own words.', { key: 'text' });
  if (raw.length > ANNOTATION_MAX_CHARS) {
    throw new UsageError('annotation-too-long', `an annotation holds at most ${ANNOTATION_MAX_CHARS} characters (this one has ${raw.length}); nothing was written. Say it shorter, or put the rest in the brief.`, { key: 'text', max: ANNOTATION_MAX_CHARS, length: raw.length });
  }
  // eslint-disable-next-line no-control-regex
  const bad = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(raw);
  if (bad) {
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UsageError('control-in-annotation', `an annotation is words, and this one holds the control character ${code} at position ${bad.index}; nothing was written. Write it without one.`, { key: 'text', char: code, position: bad.index });
  }
  refuseInvisible(raw, 'the annotation');
  return raw.trim();
}

export const ANNOTATION_METHODS: FamilyTable<'annotations'> = {
  annotate: {
    parse: (p) => ({ id: idParam(p), item: annotationItem(p), text: annotationText(p), via: p.via === 'page' ? 'page' : 'cli' }),
    handle: (w) => w.annotations.annotate,
  },
  annotations: {
    parse: (p) => {
      const id = str(p, 'id', false) || undefined;
      const sinceMs = p.sinceMs === undefined || p.sinceMs === null ? undefined : p.sinceMs;
      if (sinceMs !== undefined && (typeof sinceMs !== 'number' || !Number.isFinite(sinceMs) || sinceMs < 0)) {
        throw new UsageError('bad-since', `since must be a time in epoch milliseconds (got ${JSON.stringify(sinceMs)}); the CLI takes --since 2h or an ISO time.`, { key: 'sinceMs' });
      }
      return { ...(id && { id }), ...(sinceMs !== undefined && { sinceMs }), ...(flag(p, 'all') ? { all: true } : {}) };
    },
    handle: (w) => w.annotations.annotations,
  },
  'annotations.take': {
    parse: (p) => {
      const raw = Array.isArray(p.n) ? p.n : [p.n];
      const n = raw.map((v) => (typeof v === 'string' && /^\d{1,12}$/.test(v.trim()) ? Number(v) : v));
      if (n.length === 0 || n.length > 200 || !n.every((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0)) {
        throw new UsageError('bad-annotation-number', `take names annotations by their numbers (hand annotations lists them), e.g. hand annotations take 3 4 --as steer; got ${JSON.stringify(p.n)}.`, { key: 'n' });
      }
      const as = text(p, 'as', 'how it was taken (--as revised-brief|steer|answered)');
      if (!isOneOf(TAKEN_AS, as)) throw new UsageError('bad-taken-as', `--as ${JSON.stringify(as)}: an annotation is taken as ${TAKEN_AS.join(', ')}.`, { key: 'as' });
      return { n: [...new Set(n)], as, ...(opt(p, 'note') !== undefined && { note: opt(p, 'note')!.slice(0, 500) }) };
    },
    handle: (w) => w.annotations['annotations.take'],
  },
};
