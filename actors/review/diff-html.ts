/**
 * The landing diff as HTML, by diff2html (line-by-line, added/removed lines coloured). The page
 * then asks the diff2html UI bundle, served from the package, to colour the code by language.
 * diff2html escapes the file contents it prints.
 */
import { createRequire } from 'node:module';
import type * as Diff2Html from 'diff2html';

// Loaded on the first landing diff shown, not when the daemon starts (issue 26).
const require = createRequire(import.meta.url);

export function renderDiff(patch: string): string {
  if (!patch.trim()) return '<p class="muted">No changes.</p>';
  const { html: diffToHtml } = require('diff2html') as typeof Diff2Html;
  return diffToHtml(patch, { drawFileList: true, matching: 'lines', outputFormat: 'line-by-line', diffStyle: 'word' });
}
