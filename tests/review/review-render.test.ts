/** What the review page renders: inert Markdown, coloured screens, the fleet's order. */
import type { DecisionRow } from '../../contract/methods.ts';
import type { ServedMethods } from '../../contract/protocol.ts';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../actors/review/markdown.ts';
import { screenHtml, sgrColour } from '../../actors/review/screen-html.ts';
import { parseAnsi } from '../../io/screen/parse-ansi.ts';
import { fleetOrder, describe as describeWorker } from '../../actors/review/condition.ts';
import { fleetHtml } from '../../actors/review/render-fleet.ts';
import { buildView } from '../../actors/worker-view.ts';
import { meaningOfStage } from '../../actors/condition.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import { workerHead } from '../../actors/review/render-worker.ts';
import { openDecisionsOf } from '../../actors/review/decision-form.ts';
import { decisionKey } from '../../persistence/work/decision-store.ts';

function view(id: string, stage: string, extra: Record<string, unknown> = {}) {
  const intent = { id, project: 'shop', backend: 'tmux', agent: 'mock', worktree: '/w', branch: `kh/${id}`, base: 'main', briefPath: '/b', reportPath: '/r', repo: '/repo' } as unknown as WorkerIntent;
  return { ...buildView({ intent, stage, meaning: meaningOfStage(stage), context: null, live: true, updatedAt: 1 }), ...extra };
}

describe('review page rendering', () => {
  it('raw HTML in Markdown is shown as text, never as elements', () => {
    const html = renderMarkdown('# T\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [ok](https://example.invalid/)');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('screen colours become spans with the same colours, text escaped', () => {
    const screen = parseAnsi('\x1b[31mred\x1b[0m <b>\x1b[38;5;244mgrey\x1b[0m \x1b[1;48;2;1;2;3mbold\x1b[0m', { cols: 80, rows: 4 });
    const html = screenHtml(screen);
    expect(html).toContain('<span style="color:#cd3131">red</span>');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toContain(`color:${sgrColour('38;5;244')}`);
    expect(html).toMatch(/<span class="b" style="background:#010203">bold<\/span>/);
    expect(sgrColour('38;5;244')).toBe('#808080');
  });

  it('the fleet lists what waits on the person first, then running, then finished', () => {
    const views = [
      view('done1', 'landed'),
      view('run1', 'running.working'),
      view('gate1', 'landing.awaitingApproval'),
      view('ask1', 'running.blocked', { awaitingInput: true, blockedReason: 'question', lastActivity: 'Which database?' }),
    ];
    expect(fleetOrder(views).map((v) => v.id).slice(0, 2).sort()).toEqual(['ask1', 'gate1']);
    expect(fleetOrder(views).map((v) => v.id).slice(2)).toEqual(['run1', 'done1']);
    expect(describeWorker(views[3]!)).toMatchObject({ label: 'blocked: question', group: 'attention', ask: 'Which database?' });
    const html = fleetHtml(views, () => 'local-only');
    expect(html.indexOf('Waiting on you')).toBeLessThan(html.indexOf('Running'));
    expect(html.indexOf('Running')).toBeLessThan(html.indexOf('Finished'));
  });

  it('a worker on another host is named with it, in the fleet and on its own page', () => {
    const far = view('far1', 'running.working', { host: 'build' });
    expect(fleetHtml([far, view('here1', 'running.working')], () => 'local-only')).toMatch(/data-id="far1"[\s\S]*on build[\s\S]*data-id="here1"(?![\s\S]*on build)/);
    expect(workerHead(far, null)).toContain('build (over ssh)');
    expect(workerHead(view('here1', 'running.working'), null)).toContain('this machine');
  });
});

describe('the question a blocked worker asks', () => {
  it('without a dialog read, is the lowest row above the options that ends with a question mark, without the box drawing (io/screen/asked.ts)', async () => {
    const { askedOf } = await import('../../io/screen/asked.ts');
    const text = (ansi: string) => parseAnsi(ansi, { cols: 80, rows: 10 }).lines.map((l) => l.text).join('\n');
    expect(askedOf(null, text('☐ Database\n\nWhich database should the fake project use?\n\n❯ 1. SQLite\n  2. Postgres\n\nEnter to select')).question).toBe('Which database should the fake project use?');
    expect(askedOf(null, text('│ Do you want to proceed? │\n❯ 1. Yes')).question).toBe('Do you want to proceed?');
    expect(askedOf(null, text('all done\n> ')).question).toBeNull();
  });

  it('an open decision gets an answer form posting to decide, with a decline; none without one', () => {
    const v = view('p1', 'running.working', { waitingOn: 'Which <db>?' });
    const html = workerHead(v, null, null, [{ key: 'p1-which-db-abc123', question: 'Which <db>?', options: ['SQLite', 'Postgres'] }]);
    expect(html).toContain('data-action="decide" data-id="p1" data-key="p1-which-db-abc123"');
    expect(html).toContain('Which &lt;db&gt;?');
    expect(html).not.toContain('Which <db>?');
    expect(html).toContain('<option value="SQLite">');
    expect(html).toMatch(/name="verb" value="answer">Answer<\/button><button type="submit" class="btn" name="verb" value="decline">Decline</);
    expect(workerHead(v, null, null, [])).not.toContain('data-action="decide"');
  });

  it("the page lists the worker's open decisions from the decisions handler, and a Waiting-on line not yet recorded under its future key", async () => {
    const row = (key: string, worker: string, question: string, options: string[], state: DecisionRow['state']): DecisionRow => ({
      key, worker, question, options, state, project: null, answer: null, delivery: null, deliveredAt: null, recovery: null, said: question, openedAt: '', closedAt: null,
    });
    const rows = [row('p1-a', 'p1', 'A?', ['x'], 'open'), row('p1-b', 'p1', 'B?', [], 'answered'), row('p2-c', 'p2', 'C?', [], 'open')];
    const handlers: ServedMethods = { decisions: async (p) => (p.all === true ? rows : rows.filter((r) => r.state === 'open')) };
    expect(await openDecisionsOf(handlers, view('p1', 'running.working'))).toEqual([{ key: 'p1-a', question: 'A?', options: ['x'] }]);
    expect(await openDecisionsOf(handlers, view('p1', 'running.working', { waitingOn: 'New one?' }))).toEqual([
      { key: 'p1-a', question: 'A?', options: ['x'] },
      { key: decisionKey('p1', 'New one?'), question: 'New one?', options: [] },
    ]);
    // Its record answered already: no second form under the same key.
    rows.push(row(decisionKey('p1', 'B again?'), 'p1', 'B again?', [], 'answered'));
    expect(await openDecisionsOf(handlers, view('p1', 'running.working', { waitingOn: 'B again?' }))).toHaveLength(1);
    expect(await openDecisionsOf({}, view('p1', 'running.working'))).toEqual([]);
  });
});

describe('the review page names the agent and its version', () => {
  it('a Codex worker reads "codex 0.169.0 on tmux"; a version that could not be told is left out', () => {
    expect(workerHead(view('cx', 'running.working', { agent: 'codex', agentVersion: '0.169.0' }), null)).toContain('codex 0.169.0 on tmux');
    expect(workerHead(view('m', 'running.working'), null)).toContain('<dd>mock on tmux</dd>');
  });
});
