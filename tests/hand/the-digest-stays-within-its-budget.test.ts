/**
 * The digest a session starts with stays within 1,500 estimated tokens (characters / 4) at 20
 * workers and 50 backlog items, with every part a session start needs at its longest: waits
 * quoting questions, held items, open decisions, away mode, the usage line, the Claude Code
 * version past the corpus, every prerequisite missing, memory over budget, index drift.
 * bench/hand-digest.ts measures the same text from a live fleet; this keeps the bound in the suite.
 */
import { describe, expect, it } from 'vitest';
import { formatDigest, type Digest } from '../../cli/commands/digest.ts';
import { claudeStanding, FIX_CLAUDE, FIX_GIT, FIX_TMUX } from '../../io/agent/setup-facts.ts';

const QUESTION = 'Which database should the fake project use for the orders service, given the load we expect next quarter?';
const ids = Array.from({ length: 20 }, (_, i) => `worker-${String(i + 1).padStart(2, '0')}`);

function worstDigest(): Digest {
  const waiting = [
    ...ids.slice(0, 5).map((id) => ({ id, kind: 'blocked', text: `${id} asks — worker ${id} wrote: ${JSON.stringify(QUESTION)}` })),
    ...ids.slice(5, 8).map((id) => ({ id, kind: 'gate', text: `${id} waits for your brief approval` })),
    ...ids.slice(8, 11).map((id) => ({ id, kind: 'parked', text: `${id} parked on a decision — worker ${id} wrote: "Which queue should the service use, Redis or SQS?"` })),
    // Of the 50 items, the ones held for the person are listed; the rest are counted.
    ...Array.from({ length: 8 }, (_, i) => ({ id: `item-${i}`, kind: 'held-for-you', text: `item item-${i} held (person): needs your call on the scope of the change — Rework the checkout flow's error pages; release it with hand backlog unhold item-${i}` })),
    ...Array.from({ length: 3 }, (_, i) => ({ id: `d${i}`, kind: 'decision', text: `decision orders-which-queue-should-the-service-u-e8eb7a${i} (worker-1${i}) is open → hand decide orders-which-queue-should-the-service-u-e8eb7a${i} "<answer>"` })),
  ];
  return {
    contract: 'hand-digest.v1',
    generatedAt: '2026-12-02T06:00:00.000Z',
    home: '/home/person/.local/state/kingshand',
    workspace: '/home/person/kingshand',
    fleet: {
      // Each project names a default agent: the longest PROJECTS line.
      projects: ['shop', 'orders', 'billing'].map((name) => ({ name, posture: 'local-only', yolo: false, defaultAgent: 'gemini' as const, pathExists: true })),
      // A mixed fleet: the AGENTS line names each CLI and release.
      workers: ids.map((id, i) => ({ id, project: 'shop', host: 'local', condition: i < 5 ? 'blocked' : i < 8 ? 'gate' : i < 11 ? 'parked' : 'working', live: true, agent: i % 2 ? 'codex' : 'claude', agentVersion: i % 2 ? '0.169.0' : '2.1.332' })),
      waiting,
      queue: { ready: 30, held: 12, blocked: 8 },
      // Two pairs of workers in one repository touching the same files, five named and more counted.
      overlaps: [
        { workers: ['worker-1', 'worker-2'] as [string, string], files: ['src/checkout/errors.ts', 'src/checkout/errors.test.ts', 'src/checkout/page.tsx', 'src/checkout/api.ts', 'src/checkout/routes.ts'], count: 9 },
        { workers: ['worker-3', 'worker-4'] as [string, string], files: ['package.json'], count: 1 },
      ],
      away: { active: true, since: '2026-12-02T05:00:00.000Z', note: 'back after lunch, only push what blocks a landing' },
    },
    awayAccount: null,
    usage: 'five-hour window 62 % used, resets 14:00 UTC; weekly window 41 % used',
    setup: {
      claude: claudeStanding('/usr/local/bin/claude', '2.2.10'),
      missing: [
        { name: 'git', detail: 'git not found: no worktree, no landing', fix: FIX_GIT },
        { name: 'tmux', detail: 'tmux not found: the default backend cannot host a worker (--backend pty still can)', fix: FIX_TMUX },
        { name: 'claude', detail: 'Claude Code not found: --agent claude cannot start', fix: FIX_CLAUDE },
      ],
    },
    memory: { total: 9200, budget: 8000, over: true, overBy: 1200, files: [] } as unknown as Digest['memory'],
    index: { indexed: 140, unindexed: Array.from({ length: 12 }, (_, i) => `data/n${i}.md`), stale: ['data/gone.md'] } as unknown as Digest['index'],
    broken: [],
  };
}

describe('the digest stays within its budget', () => {
  it('is at most 1,500 estimated tokens at 20 workers and 50 items, with every part at its longest', () => {
    const text = formatDigest(worstDigest());
    for (const part of ['WAITS ON YOU 22:', 'WORKERS 20:', 'AGENTS: claude 2.1.332 ×10; codex 0.169.0 ×10', 'shop [local-only, agent gemini]', 'QUEUE: 30 ready, 12 held, 8 blocked', 'AWAY since', 'USAGE:', 'MISSING git:', 'MISSING tmux:', 'MISSING claude:', 'CLAUDE CODE: Claude Code 2.2.10 is newer', 'MEMORY OVER', 'UNINDEXED 12']) {
      expect(text, part).toContain(part);
    }
    expect(Math.ceil(text.length / 4), text).toBeLessThanOrEqual(1500);
  });

  it("names a project's default agent only when it is not claude", () => {
    const d = worstDigest();
    d.fleet!.projects = [{ name: 'shop', posture: 'local-only', yolo: false, defaultAgent: null, pathExists: true }, { name: 'orders', posture: 'local-only', yolo: true, defaultAgent: 'codex', pathExists: true }];
    expect(formatDigest(d)).toContain('PROJECTS 2: shop [local-only]; orders [local-only, yolo, agent codex]');
  });
});
