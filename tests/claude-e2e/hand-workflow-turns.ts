/**
 * What the scripted Hand does in the-hand-runs-the-whole-workflow.test.ts: one turn per thing
 * the person says, and one per wake line the fleet prints. The Hand's words quote the workers'
 * words from the tool results, attributed, as the kit tells it to.
 */
import type { HandCall, Turn } from './hand-script.ts';
import { resultJson } from './hand-script.ts';

export const Q1 = 'Which database should the shop use?';
export const Q2 = 'Should the schema keep a migration log?';
export const PARK_QUESTION = 'Which queue should the service use?';

/** The person's messages, typed into the Hand's pane in this order. */
export const SAY = {
  start: 'Two tasks for repo: menu-a picks the database, park-b sets up the queue. I approve both briefs as written: start both.',
  meanwhile: 'While they run: what are they doing?',
  decideB: 'park-b: Redis.',
  landB: 'Land park-b.',
  approveB: 'Yes, approve that landing.',
  queueC: 'Queue one more for later (later-c, a health page), then show me what is left.',
  away: 'menu-a: SQLite, the first option. Then I am away for an hour.',
  back: 'I am back.',
} as const;

export interface TurnContext {
  watchCommand: string;
  briefs: { a: string; b: string; c: string };
  calls: () => HandCall[];
}

const mcp = (name: string, input: (earlier: HandCall[]) => Record<string, unknown> = () => ({})) => ({ name: `mcp__hand__${name}`, input });

export function personTurns(text: string, ctx: TurnContext): { key: string; turn: Turn }[] {
  const name = (Object.keys(SAY) as (keyof typeof SAY)[]).find((k) => text.includes(SAY[k]));
  if (!name) return [];
  const turn = (t: Turn) => [{ key: `person:${name}`, turn: t }];
  switch (name) {
    case 'start':
      return turn({
        steps: [
          { name: 'Monitor', input: () => ({ description: 'fleet needs you', timeout_ms: 1_800_000, command: ctx.watchCommand }) },
          mcp('backlog_add', () => ({ id: 'menu-a', title: 'Pick the database', project: 'repo', brief: ctx.briefs.a })),
          mcp('backlog_add', () => ({ id: 'park-b', title: 'Set up the queue', project: 'repo', brief: ctx.briefs.b })),
          mcp('dispatch', () => ({ item: 'menu-a', agent: 'mock', backend: 'tmux' })),
          mcp('dispatch', () => ({ item: 'park-b', agent: 'mock', backend: 'tmux' })),
          mcp('approve', () => ({ id: 'menu-a' })),
          mcp('approve', () => ({ id: 'park-b' })),
        ],
        say: () => 'Both started: menu-a picks the database, park-b sets up the queue. The fleet wakes me when one needs you.',
      });
    case 'meanwhile':
      return turn({
        steps: [mcp('status')],
        say: (c) => (resultJson(c[0]) as { id: string; stage: string; state: string }[]).map((r) => `${r.id}: ${r.stage} (${r.state})`).join('; '),
      });
    case 'decideB':
      return turn({
        steps: [mcp('decide', () => ({ key: openDecision(ctx.calls()).key, answer: 'Redis' }))],
        say: () => 'Sent Redis to park-b.',
      });
    case 'landB':
      return turn({
        steps: [mcp('land', () => ({ id: 'park-b' }))],
        say: (c) => {
          const e = resultJson(c[0]).evidence as { commits: number; branch: string; diffStat: string };
          return `park-b: ${e.commits} commit on ${e.branch} (${e.diffStat.trim().split('\n').at(-1)}). Approve the landing?`;
        },
      });
    case 'approveB':
      return turn({ steps: [mcp('approve', () => ({ id: 'park-b' }))], say: () => 'Landed park-b on main.' });
    case 'queueC':
      return turn({
        steps: [
          mcp('backlog_add', () => ({ id: 'later-c', title: 'Add a health page', project: 'repo', brief: ctx.briefs.c })),
          mcp('survey'),
        ],
        say: (c) => {
          const s = resultJson(c[1]) as { next?: { text: string }[] };
          return `Left: ${(s.next ?? []).map((n) => n.text).join('; ') || 'nothing'}`;
        },
      });
    case 'away':
      return turn({
        steps: [
          mcp('afk_on', () => ({ note: 'back in an hour' })),
          mcp('read', () => ({ id: 'menu-a' })),
          mcp('keys', () => ({ id: 'menu-a', key: 'enter' })),
        ],
        say: () => 'Sent SQLite to menu-a. You are away: I keep watching and decide nothing that is yours.',
      });
    case 'back':
      return turn({
        steps: [mcp('afk_off')],
        say: (c) => {
          const a = (resultJson(c[0]) as { account: { summary: string; waitingOnYou: { worker?: string; question?: string }[] } }).account;
          return [`Welcome back. ${a.summary}`, ...a.waitingOnYou.map((w) => `Waits on you: worker ${w.worker} wrote: "${w.question}"`)].join('\n');
        },
      });
  }
}

function openDecision(calls: HandCall[]): { key: string } {
  const listed = calls.find((c) => c.turn === 'wake:b-parked' && c.name === 'mcp__hand__decisions');
  const open = (resultJson(listed) as { key: string; worker: string }[]).find((d) => d.worker === 'park-b');
  if (!open) throw new Error('no open decision of park-b was listed');
  return open;
}

/**
 * The events of one notification text: Claude Code puts each Monitor line in its own <event>, and
 * lines that arrive together (a gate and a landing during one turn) come in one message.
 */
function eventsOf(text: string): string[] {
  return [...text.matchAll(/<event>([\s\S]*?)<\/event>/g)].map((m) => m[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}

/** A wake line names its worker and what it needs; the Hand's turn for each event it knows. */
export function wakeTurns(text: string): { key: string; turn: Turn }[] {
  return eventsOf(text).map((event) => wakeTurn(event));
}

function wakeTurn(event: string): { key: string; turn: Turn } {
  if (event.includes('menu-a is blocked') && event.includes(Q1)) {
    return { key: 'wake:a-q1', turn: { steps: [], say: () => `worker menu-a wrote: "${Q1}" — 1. SQLite, 2. Postgres, 3. None. Which one?` } };
  }
  if (event.includes('menu-a is blocked') && event.includes(Q2)) {
    return { key: 'wake:a-q2', turn: { steps: [], say: () => `worker menu-a wrote: "${Q2}" — noted for when you are back.` } };
  }
  if (event.includes('park-b parked on a decision')) {
    return {
      key: 'wake:b-parked',
      turn: {
        steps: [mcp('decisions')],
        say: (c) => {
          const d = (resultJson(c[0]) as { key: string; worker: string; question: string; options: string[] }[]).find((x) => x.worker === 'park-b')!;
          return `worker park-b wrote: "${d.question}" (decision ${d.key}): ${d.options.join(' or ')}?`;
        },
      },
    };
  }
  // Any other event (a gate opened, a landing done) is said to the person as the fleet printed it.
  const line = event.replace(/ → .*$/s, '');
  return { key: `wake:${line}`, turn: { steps: [], say: () => `Fleet: ${line}.` } };
}
