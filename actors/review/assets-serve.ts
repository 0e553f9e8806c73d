/**
 * The page's static files: our own stylesheet and script, and diff2html's stylesheet and UI
 * bundle read from the installed package. A fixed list; nothing else is served from disk and
 * nothing is fetched from a CDN.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { KINGSHAND_ROOT } from '../../io/root.ts';

export interface Asset {
  body: Buffer;
  type: string;
}

function diff2htmlDir(): string {
  // lib/diff2html.js → the package folder (the package has no exports map to name files by).
  return dirname(dirname(createRequire(join(KINGSHAND_ROOT, 'package.json')).resolve('diff2html')));
}

// A Map, never a plain object: `/assets/constructor` found Object.prototype's constructor (a 500).
const SOURCES = new Map<string, { path: () => string; type: string }>(Object.entries({
  'review.css': { path: () => join(KINGSHAND_ROOT, 'actors', 'review', 'assets', 'review.css'), type: 'text/css; charset=utf-8' },
  'review.js': { path: () => join(KINGSHAND_ROOT, 'actors', 'review', 'assets', 'review.js'), type: 'text/javascript; charset=utf-8' },
  'diff2html.min.css': { path: () => join(diff2htmlDir(), 'bundles', 'css', 'diff2html.min.css'), type: 'text/css; charset=utf-8' },
  'diff2html-ui-slim.min.js': { path: () => join(diff2htmlDir(), 'bundles', 'js', 'diff2html-ui-slim.min.js'), type: 'text/javascript; charset=utf-8' },
}));

const cache = new Map<string, Asset>();

/** The named asset, or null when the name is not on the list. */
export function asset(name: string): Asset | null {
  const src = SOURCES.get(name);
  if (!src) return null;
  let a = cache.get(name);
  if (!a) {
    a = { body: readFileSync(src.path()), type: src.type };
    cache.set(name, a);
  }
  return a;
}
