/**
 * The landing diff as HTML, by diff2html (line-by-line, added/removed lines coloured). The page
 * then asks the diff2html UI bundle, served from the package, to colour the code by language.
 * diff2html escapes the file contents it prints.
 */
import { html as diffToHtml } from 'diff2html';

export function renderDiff(patch: string): string {
  if (!patch.trim()) return '<p class="muted">No changes.</p>';
  return diffToHtml(patch, { drawFileList: true, matching: 'lines', outputFormat: 'line-by-line', diffStyle: 'word' });
}
