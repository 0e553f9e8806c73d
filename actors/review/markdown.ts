/**
 * Briefs and reports as HTML. Raw HTML in the Markdown is never passed through (html: false
 * escapes it as text) and markdown-it's link check drops javascript:, vbscript: and data: links
 * (except images), so a <script> or an onerror= in a brief is shown, never run. The page's
 * Content-Security-Policy (no inline script) is the second wall.
 */
import { createRequire } from 'node:module';
import type MarkdownItType from 'markdown-it';

const require = createRequire(import.meta.url);
let md: InstanceType<typeof MarkdownItType> | null = null;

/**
 * Made on the first page that shows a document, not when the daemon starts (markdown-it and its
 * helpers are a twentieth of a second of the daemon's start, issue 26).
 */
function renderer(): InstanceType<typeof MarkdownItType> {
  if (md) return md;
  const MarkdownIt = require('markdown-it') as typeof MarkdownItType;
  const it = new MarkdownIt({ html: false, linkify: true, typographer: false });
  // Links open outside the review page and tell the target nothing about it.
  const defaultLinkOpen = it.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  it.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', 'noopener noreferrer');
    tokens[idx]!.attrSet('target', '_blank');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  md = it;
  return it;
}

/** Markdown → sanitised HTML. */
export function renderMarkdown(text: string): string {
  return renderer().render(text);
}
