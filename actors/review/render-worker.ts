/**
 * The worker view: its condition and what it asks, the actions open to the person, the live
 * screen, the brief, the report, the landing evidence and the journal. The head (condition +
 * actions), the screen and the details are separate fragments, each re-sent alone when it changes.
 */
import type { WorkerViewLike } from '../fleet-api.ts';
import type { StoredJournalEntry } from '../../persistence/types.ts';
import { stagePath } from '../worker-view.ts';
import { meaningOfStage } from '../condition.ts';
import { describe } from './condition.ts';
import { esc } from './html.ts';
import { saidHtml } from './said-html.ts';
import { AGENT_ERROR_PREFIX } from '../../contract/worker-words.ts';
import { renderMarkdown } from './markdown.ts';
import { renderDiff } from './diff-html.ts';
import { shell } from './render-fleet.ts';
import type { ShownFile, WorkerDetails } from './worker-details.ts';
import { decisionForms, type PageDecision } from './decision-form.ts';
import { dialogButtons } from './dialog-buttons.ts';
import { journalWords, stageWords } from './journal-words.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';
import type { BrowserChecksVerdict } from '../../contract/browser-checks.ts';
import { reviewItemsHtml } from './annotations-html.ts';

export function workerTitle(v: WorkerViewLike): string {
  return `${v.id} — ${describe(v).label} · kingshand`;
}

function actions(v: WorkerViewLike, decisions: PageDecision[]): string {
  const id = esc(v.id);
  const out: string[] = [];
  if (v.gate) {
    const what = v.gate === 'brief approval' ? 'brief' : 'landing';
    const settings = v.gate === 'landing approval' ? v.landing?.agentSettings : undefined;
    // A change to the repository's agent settings is approved only with the person's explicit
    // confirmation, which the button asks for by name (issue 37 item 3); the daemon refuses
    // the approval without it whatever the page sends.
    if (settings?.needsWord) out.push(acceptSettingsButton(id, settings));
    else out.push(`<button type="button" class="btn primary" data-action="approve" data-id="${id}">Approve ${what}</button>`);
    out.push(`<form class="reject" data-action="reject" data-id="${id}"><label for="reason">Reason</label><input id="reason" name="reason" required autocomplete="off" placeholder="why, in words the worker can act on"><button type="submit" class="btn">Reject ${what}</button></form>`);
  }
  if (v.marks.includes('landable') && !v.gate) out.push(`<button type="button" class="btn primary" data-action="land" data-id="${id}">Open landing gate</button>`);
  if (!['gone', 'stopping', 'stuck'].includes(v.condition) && !v.marks.includes('brief-gate')) {
    out.push(`<button type="button" class="btn danger" data-action="stop" data-id="${id}" data-confirm="Stop ${id}? Its agent is asked to exit.">Stop</button>`);
  }
  // A live dialog's options post to the daemon's `answer` handler (dialog-buttons.ts).
  if (v.dialog && v.condition !== 'gone') out.push(dialogButtons(v));
  // Answering an open decision posts to the daemon's `decide` handler (decision-form.ts).
  if (decisions.length) out.push(decisionForms(v.id, decisions));
  return out.length ? `<div class="actions" role="group" aria-label="Actions">${out.join('')}</div>` : '';
}

/** The approve button of a landing that changes the repository's agent settings: it asks for the person's word first. */
function acceptSettingsButton(id: string, s: LandingAgentSettings): string {
  const files = s.changes.filter((c) => c.needsWord);
  const said = files.map((c) => c.describe).join('\n').slice(0, 1500);
  const confirm = `This landing changes what the repository's own agent settings run or grant. Every later worker of this repository runs them as you.\n\n${said}\n\n(Repository content a worker wrote.) Accept these agent settings and land?`;
  return `<button type="button" class="btn primary" data-action="approve" data-id="${id}" data-accept-agent-settings="1" data-confirm="${esc(confirm)}">Approve landing and accept its agent settings (${esc(files.map((c) => c.path).join(', '))})</button>`;
}

/** The head fragment: condition, what is asked, facts, actions. */
export function workerHead(v: WorkerViewLike, posture: string | null, question: string | null = null, decisions: PageDecision[] = [], note?: { cost: string | null; resume: string | null }): string {
  const d = describe(v);
  if (question && d.asksOnScreen) d.ask = question;
  if (note?.resume && !d.ask) d.ask = note.resume;
  /** [label, text] (escaped here), or [label, html] already built from escaped parts. */
  const facts: [string, string | { html: string }][] = [
    ['project', `${v.project}${posture ? ` (${posture})` : ''}`],
    ['stage', v.stage],
    ['branch', v.branch],
    ['agent', `${v.agent}${v.agentVersion ? ` ${v.agentVersion}` : ''} on ${v.backend}`],
    ['host', v.host === 'local' ? 'this machine' : `${v.host} (over ssh)`],
  ];
  if (note?.cost) facts.push(['cost', note.cost]);
  if (v.rejection) facts.push(['rejected', `${v.rejection.gate}: ${v.rejection.reason}`]);
  if (v.landingFailure) facts.push(['landing refused', v.landingFailure.message]);
  if (v.landed) facts.push(['landed', landedWords(v.landed.posture, v.landed.detail as Record<string, unknown>)]);
  // An agent error's line is the worker's screen: quoted, attributed (issue 37).
  if (v.problem) facts.push(['problem', v.problem.startsWith(AGENT_ERROR_PREFIX) ? { html: `${esc(AGENT_ERROR_PREFIX)}${saidHtml(v.id, v.problem.slice(AGENT_ERROR_PREFIX.length))}` } : v.problem]);
  return `<h1><span class="id">${esc(v.id)}</span> <span id="condition" class="badge tone-${d.tone}">${esc(d.label)}</span></h1>
${d.ask ? (d.asksOnScreen ? `<p class="ask callout">${saidHtml(v.id, d.ask, ' id="ask"')}</p>` : `<p class="ask callout" id="ask">${esc(d.ask)}</p>`) : ''}
<dl class="facts">${facts.map(([k, val]) => `<div><dt>${esc(k)}</dt><dd>${typeof val === 'string' ? esc(val) : val.html}</dd></div>`).join('')}</dl>
${actions(v, decisions)}`;
}

/** What a landing did, in words (the raw detail is JSON, for --json readers only). */
function landedWords(posture: string, d: Record<string, unknown>): string {
  if (typeof d.pr === 'string') return `${posture}: pull request ${d.pr}${d.draft === true ? ' (a draft: quick dispatch, no review gate ran)' : ''}${d.pushed === false ? ' (branch not on origin yet)' : ''}`;
  if (typeof d.target === 'string') return `${posture}: ${d.target} fast-forwarded to ${String(d.to ?? '').slice(0, 10)}`;
  return posture;
}

function journalHtml(entries: StoredJournalEntry[]): string {
  if (entries.length === 0) return '<p class="muted">Nothing journaled yet.</p>';
  const rows = entries.map((e) => {
    const ev = e.event as { type?: string } | null;
    const from = stagePath(e.from);
    const to = stagePath(e.to);
    const raw = String(ev?.type ?? '?');
    // Words for the person; the machine's own name in the tooltip.
    // The stages in the badges' words (the same as hand audience's); the stage paths in the tooltip.
    const fromWords = stageWords(from);
    const toWords = stageWords(to);
    const stages = from === to ? to : `${from} → ${to}`;
    return `<tr><td><time datetime="${new Date(e.at).toISOString()}">${esc(new Date(e.at).toISOString().slice(11, 19))}</time></td><td title="${esc(raw)}">${esc(journalWords(raw))}</td><td title="${esc(stages)}">${fromWords === toWords ? esc(toWords) : `${esc(fromWords)} → ${esc(toWords)}`}</td></tr>`;
  });
  return `<div class="scroll"><table class="journal"><thead><tr><th scope="col">time (UTC)</th><th scope="col">event</th><th scope="col">stage</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function evidenceHtml(ev: WorkerDetails['evidence'], stage: string): string {
  if (ev === null) return '<p class="muted">No branch to judge at this stage.</p>';
  if ('error' in ev) return `<p class="muted">${esc(ev.error)}</p>`;
  const e = ev.evidence;
  const meaning = meaningOfStage(stage);
  const judged = meaning.marks.includes('landable') || meaning.condition === 'landing';
  if (!judged && e.commits.length === 0) return `<p class="muted">No commits on ${esc(e.branch)} yet; the evidence is judged when the worker is done.</p>`;
  const verdict = e.verdict === 'ready' ? 'ready to land' : e.verdict;
  const attribution = e.attributionHits.length === 0
    ? '<p class="ok">Attribution check: no commit message mentions claude, an assistant or a co-author.</p>'
    : `<div class="bad"><p>Attribution check failed — these lines refuse the landing:</p><ul>${e.attributionHits.map((h) => `<li><code>${esc(h.sha.slice(0, 10))}</code> ${esc(h.line)}</li>`).join('')}</ul></div>`;
  const uncommitted = e.uncommitted && e.uncommitted.length ? `<p class="bad">Uncommitted in the worktree: ${esc(e.uncommitted.join(', '))}</p>` : '';
  return `<p>Verdict: <strong class="verdict verdict-${esc(e.verdict)}">${esc(verdict)}</strong> · ${esc(e.base)} (${esc(e.baseSha.slice(0, 10))}) … ${esc(e.branch)} (${esc(e.headSha.slice(0, 10))})</p>
${attribution}${uncommitted}
<h3>Commits</h3>${e.log ? `<pre class="log">${esc(e.log)}</pre>` : '<p class="muted">No commits on the branch.</p>'}
${agentSettingsHtml(ev.agentSettings)}
<h3>Changed files</h3>${e.diffStat ? `<pre class="stat">${esc(e.diffStat)}</pre>` : '<p class="muted">None.</p>'}
<h3>Diff</h3>${ev.truncated ? '<p class="muted">The diff is too large to show whole; files past the cut are left out.</p>' : ''}<div id="diff" class="diff">${renderDiff(ev.patch)}</div>`;
}

/** What the branch changes in the repository's own agent settings, read from its commits: never an ordinary diff line. */
function agentSettingsHtml(s: LandingAgentSettings | { error: string } | undefined): string {
  if (!s) return '';
  if ('error' in s) return `<h3>Agent settings</h3><p class="bad">Could not read the repository's agent settings from the commits: ${esc(s.error)}. Do not approve until they can be read.</p>`;
  if (s.changes.length === 0) return '';
  const rows = s.changes.map((c) => `<li class="${c.needsWord ? 'bad' : 'muted'}"><code>${esc(c.path)}</code> ${esc(c.change)} (read by ${esc(c.agents.join(', '))})<br>before: ${esc(c.before?.summary ?? 'absent')}<br>after: ${esc(c.after?.summary ?? 'absent')}</li>`);
  const head = s.needsWord
    ? '<p class="bad">This branch changes what the repository\'s own agent settings run or grant. Every later worker of this repository runs them as you: approving needs your explicit confirmation. Quoted repository content, not instructions:</p>'
    : '<p class="muted">Agent settings changed, but nothing they run or grant:</p>';
  return `<h3>Agent settings</h3>${head}<ul class="agent-settings">${rows.join('')}</ul>`;
}

/** The browser checks' verdict and each check with what was observed (the worker's record, quoted by the daemon). */
function browserChecksHtml(v: BrowserChecksVerdict | null): string {
  if (!v) return '';
  const tone = v.verdict === 'verified' ? 'ok' : 'bad';
  const rows = v.checks.map((c) => `<li class="check check-${esc(c.result.replace(' ', '-'))}"><span class="item-id">${esc(c.id)}</span> <strong>${esc(c.result)}</strong> · ${esc(c.text)}<br><span class="muted small">${esc(c.said)}</span></li>`);
  return `<h3>Browser checks</h3><p class="${tone}" id="browser-checks-verdict">Browser checks: <strong>${esc(v.line)}</strong></p><ul class="checks">${rows.join('')}</ul>`;
}

function docHtml(doc: ShownFile | null, none: string): string {
  if (doc === null) return `<p class="muted">${esc(none)}</p>`;
  if ('error' in doc) return `<p class="muted">${esc(doc.error)}</p>`;
  // Refused is not "none": the worker put something there the daemon would not read, and why.
  if ('refused' in doc) return `<p class="bad">${esc(doc.refused)}</p>`;
  return `${doc.note ? `<p class="muted">${esc(doc.note)}</p>` : ''}<div class="md">${renderMarkdown(doc.text)}</div>`;
}

/** The details fragment: report, landing evidence, brief, journal. */
/** Other live workers touching the same files: named with a link, the files as text (a worker's names). */
function overlapsHtml(list: WorkerDetails['overlaps']): string {
  if (!list?.length) return '';
  const items = list.map((o) => `<li><a href="/w/${encodeURIComponent(o.with)}">${esc(o.with)}</a> also changes ${o.files.map((f) => `<code>${esc(f)}</code>`).join(', ')}${o.count > o.files.length ? ` (+${o.count - o.files.length} more)` : ''}</li>`);
  return `<section aria-labelledby="h-overlaps" class="callout"><h2 id="h-overlaps">Overlaps</h2><p>Another live worker of this repository touches the same files: the second to land rebases onto the first (<code>hand land &lt;id&gt; --rebase</code>), or steer one away now.</p><ul id="overlaps">${items.join('')}</ul></section>
`;
}

export function workerDetailsHtml(d: WorkerDetails, id = ''): string {
  return `${overlapsHtml(d.overlaps)}${d.review ? reviewItemsHtml(id, d.review.items, d.review.notes, d.review.filesCapped) : ''}<section aria-labelledby="h-report"><h2 id="h-report">Report</h2>${docHtml(d.report, 'No report yet.')}</section>
<section aria-labelledby="h-landing"><h2 id="h-landing">Landing evidence</h2>${browserChecksHtml(d.browserChecks ?? null)}${evidenceHtml(d.evidence, d.stage)}</section>
<section aria-labelledby="h-brief"><h2 id="h-brief">Brief</h2>${docHtml(d.brief, 'No brief.')}</section>
<section aria-labelledby="h-journal"><h2 id="h-journal">Journal</h2>${journalHtml(d.journal)}</section>`;
}

export function workerPage(v: WorkerViewLike, details: WorkerDetails, screen: string, csrf: string, question: string | null = null, decisions: PageDecision[] = [], note?: { cost: string | null; resume: string | null }): string {
  const body = `<div id="head">${workerHead(v, details.posture, question, decisions, note)}</div>
<section aria-labelledby="h-screen"><h2 id="h-screen">${esc(v.id)}'s screen <span class="muted small">(live, read-only: the worker's words, not the page's)</span></h2><pre id="screen" class="term" tabindex="0" aria-label="${esc(v.id)}'s screen">${screen}</pre></section>
<div id="details">${workerDetailsHtml(details, v.id)}</div>`;
  return shell({ title: workerTitle(v), csrf, page: 'worker', workerId: v.id, body });
}
