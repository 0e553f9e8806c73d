/**
 * The review page's landing view (issue 37 item 3): a landing that changes what the
 * repository's agent settings run or grant is approved only through a button that names the
 * files and asks the person to confirm (its post carries `acceptAgentSettings`, which the daemon
 * requires); the evidence shows each change before and after as quoted, escaped repository
 * content, never as an ordinary diff line. A landing without such a change keeps the plain button.
 */
import { describe, expect, it } from 'vitest';
import { buildView } from '../../actors/worker-view.ts';
import { meaningOfStage } from '../../actors/condition.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import { workerDetailsHtml, workerHead } from '../../actors/review/render-worker.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';
import type { LandingEvidence } from '../../io/git/index.ts';

const SETTINGS: LandingAgentSettings = {
  needsWord: true,
  digest: 'd1',
  changes: [{
    path: '.claude/settings.json', agents: ['Claude Code'], change: 'added', needsWord: true, before: null,
    after: { path: '.claude/settings.json', agents: ['Claude Code'], state: 'present', grants: [], inert: [], summary: 'runs 1 hook (SessionStart: "</button><script>alert(1)</script>")' },
    describe: '.claude/settings.json added (read by Claude Code): before: absent; after: runs 1 hook (SessionStart: "</button><script>alert(1)</script>")',
  }],
};

function gateView(agentSettings?: LandingAgentSettings) {
  const intent = { id: 'w1', project: 'shop', backend: 'tmux', agent: 'mock', worktree: '/w', branch: 'kh/w1', base: 'main', briefPath: '/b', reportPath: '/r', repo: '/repo' } as unknown as WorkerIntent;
  const stage = 'landing.awaitingApproval';
  const landing = { posture: 'local-only', base: 'main', branch: 'kh/w1', baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40), verdict: 'ready', diffStat: '', log: '', commits: 1, openedAt: 1, approvedBy: null, ...(agentSettings ? { agentSettings } : {}) };
  return { ...buildView({ intent, stage, meaning: meaningOfStage(stage), context: null, live: true, updatedAt: 1 }), gate: 'landing approval' as const, landing };
}

describe('the review page asks for the person\'s word on agent settings', () => {
  it('the approve button names the files and asks for confirmation; the repository content is escaped', () => {
    const html = workerHead(gateView(SETTINGS) as never, 'local-only');
    expect(html).toContain('data-accept-agent-settings="1"');
    expect(html).toContain('Approve landing and accept its agent settings (.claude/settings.json)');
    expect(html).toMatch(/data-confirm="This landing changes what the repository&#39;s own agent settings run or grant\./);
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/>Approve landing<\/button>/);
  });

  it('a landing without such a change keeps the plain approve button', () => {
    const html = workerHead(gateView({ needsWord: false, digest: '', changes: [] }) as never, 'local-only');
    expect(html).toMatch(/data-action="approve" data-id="w1">Approve landing<\/button>/);
    expect(html).not.toContain('data-accept-agent-settings');
  });

  it('the evidence shows each change before and after, flagged, escaped', () => {
    const evidence = { repo: '/repo', branch: 'kh/w1', base: 'main', baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40), diffStat: ' .claude/settings.json | 1 +', log: 'x', commits: [{ sha: 'b'.repeat(40), subject: 'x' }], attributionHits: [], uncommitted: [], verdict: 'ready' } as LandingEvidence;
    const html = workerDetailsHtml({ brief: { text: '' }, report: null, evidence: { evidence, patch: '', truncated: false, agentSettings: SETTINGS }, journal: [], posture: 'local-only', stage: 'landing.awaitingApproval', overlaps: [] });
    expect(html).toContain('<h3>Agent settings</h3>');
    expect(html).toContain('approving needs your explicit confirmation');
    expect(html).toContain('<li class="bad"><code>.claude/settings.json</code> added (read by Claude Code)<br>before: absent<br>after: runs 1 hook (SessionStart: &quot;&lt;/button&gt;&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});
