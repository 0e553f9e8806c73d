/** The page shell and the fleet view: one row per worker, what waits on the person first. */
import type { WorkerViewLike } from '../fleet-api.ts';
import { describe, fleetOrder, type Group } from './condition.ts';
import { esc } from './html.ts';
import { saidHtml } from './said-html.ts';

export interface ShellParts {
  title: string;
  /** The session's own header token (sessions.ts), never the standing token. */
  csrf: string;
  /** 'fleet' or 'worker'; the page script reads it to know which stream to follow. */
  page: 'fleet' | 'worker';
  workerId?: string;
  body: string;
}

export function shell(p: ShellParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="hand-token" content="${esc(p.csrf)}">
<meta name="referrer" content="no-referrer">
<title>${esc(p.title)}</title>
<link rel="stylesheet" href="/assets/review.css">
${p.page === 'worker' ? '<link rel="stylesheet" href="/assets/diff2html.min.css">' : ''}
</head>
<body data-page="${p.page}"${p.workerId ? ` data-worker="${esc(p.workerId)}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Site"><a href="/" class="brand">kingshand</a>${p.workerId ? ` <span aria-hidden="true">›</span> <span class="crumb">${esc(p.workerId)}</span>` : ''}</nav><span id="live" class="live" role="status" aria-live="polite">connecting…</span></header>
<main id="main" tabindex="-1">
${p.body}
</main>
<div id="toast" class="toast" role="alert" aria-live="assertive" hidden></div>
${p.page === 'worker' ? '<script src="/assets/diff2html-ui-slim.min.js" defer></script>' : ''}
<script src="/assets/review.js" defer></script>
</body>
</html>
`;
}

const GROUP_TITLE: Record<Group, string> = { attention: 'Waiting on you', running: 'Running', finished: 'Finished' };

export type PostureOf = (project: string) => string | null;

/** What the page adds to a worker's row from its session (issue 41): its cost, and a lost worker's resume. */
export type PageStandings = Map<string, { cost: string | null; resume: string | null }>;

function row(v: WorkerViewLike, postureOf: PostureOf, question: string | undefined, note?: { cost: string | null; resume: string | null }): string {
  const d = describe(v);
  // A lost worker's way back is what it asks of the person (its own words, never quoted as the worker's).
  if (note?.resume && !d.ask) d.ask = note.resume;
  if (question && d.asksOnScreen) d.ask = question;
  const posture = postureOf(v.project);
  return `<li class="row tone-${d.tone}" data-id="${esc(v.id)}">
<a class="row-link" href="/w/${encodeURIComponent(v.id)}"><span class="id">${esc(v.id)}</span></a>
<span class="badge tone-${d.tone}">${esc(d.label)}</span>
<span class="project">${esc(v.project)}${posture ? ` <span class="posture">${esc(posture)}</span>` : ''}${v.host && v.host !== 'local' ? ` <span class="posture host">on ${esc(v.host)}</span>` : ''}${note?.cost ? ` <span class="posture cost">${esc(note.cost)}</span>` : ''}</span>
${d.ask ? `<p class="ask">${d.asksOnScreen ? saidHtml(v.id, d.ask) : esc(d.ask)}</p>` : v.lastActivity ? `<p class="activity">${saidHtml(v.id, v.lastActivity)}</p>` : ''}
</li>`;
}

/** The fleet's inner HTML (re-sent whole on each change: a fleet is tens of rows, not thousands). */
export function fleetHtml(views: WorkerViewLike[], postureOf: PostureOf, questions: Map<string, string> = new Map(), notes: PageStandings = new Map()): string {
  if (views.length === 0) return '<p class="empty">No workers yet. Dispatch one with <code>hand dispatch &lt;id&gt; --repo &lt;dir&gt; --brief &lt;file&gt;</code>.</p>';
  const ordered = fleetOrder(views);
  const out: string[] = [];
  for (const g of ['attention', 'running', 'finished'] as Group[]) {
    const rows = ordered.filter((v) => describe(v).group === g);
    if (rows.length === 0) continue;
    out.push(`<section class="group group-${g}" aria-labelledby="g-${g}"><h2 id="g-${g}">${GROUP_TITLE[g]} <span class="count">${rows.length}</span></h2><ul class="rows">${rows.map((v) => row(v, postureOf, questions.get(v.id), notes.get(v.id))).join('')}</ul></section>`);
  }
  return out.join('\n');
}

export function fleetTitle(views: WorkerViewLike[]): string {
  const waiting = views.filter((v) => describe(v).group === 'attention').length;
  return waiting > 0 ? `(${waiting}) waiting on you · kingshand` : `fleet · kingshand`;
}

/** Lines the person should know above the fleet (an agent not calibrated at its installed version), or nothing. */
function noticesHtml(notices: readonly string[]): string {
  if (notices.length === 0) return '';
  return `<section class="notices" aria-label="Notices"><ul>${notices.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section>\n`;
}

export function fleetPage(views: WorkerViewLike[], postureOf: PostureOf, csrf: string, questions: Map<string, string> = new Map(), notices: readonly string[] = [], notes: PageStandings = new Map()): string {
  return shell({ title: fleetTitle(views), csrf, page: 'fleet', body: `<h1>Fleet</h1>\n${noticesHtml(notices)}<div id="fleet">${fleetHtml(views, postureOf, questions, notes)}</div>` });
}
