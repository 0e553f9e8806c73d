/**
 * Briefs and reports as HTML. Raw HTML in the Markdown is never passed through (html: false
 * escapes it as text) and markdown-it's link check drops javascript:, vbscript: and data: links
 * (except images), so a <script> or an onerror= in a brief is shown, never run. The page's
 * Content-Security-Policy (no inline script) is the second wall.
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// Links open outside the review page and tell the target nothing about it.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  tokens[idx]!.attrSet('target', '_blank');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Markdown → sanitised HTML. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
