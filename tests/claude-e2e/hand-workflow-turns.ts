/**
 * What the scripted Hand does in the-hand-runs-the-whole-workflow.test.ts: one turn per thing
 * the person says, and one per wake line the fleet prints. The Hand's words quote the workers'
 * words from the tool results, attributed, as the kit tells it to.
 */
import type { HandCall, Turn } from './hand-script.ts';
import { fleetLineTurn, handTurns, mcp, monitorStep, resultJson } from './hand-script.ts';

export const Q1 = 'Which database should the shop use?';
export const Q2 = 'Should the schema keep a migration log?';
export const PARK_QUESTION = 'Which queue should the service use?';

/** The person's messages, typed into the Hand's pane in this order. */
export const SAY = {
  start: 'Two tasks for repo: menu-a picks the database, park-b sets up the queue. I approve both briefs as written: start both.',
  meanwhile: 'While they run: what are they doing?',
  holdB: "Hold park-b's item: I decide on the queue after lunch.",
  decideB: 'park-b: Redis.',
  landB: 'Land park-b.',
  approveB: 'Yes, approve that landing.',
  queueC: 'Queue one more for later (later-c, a health page), then show me what is left.',
  phone: 'Send the fleet alerts to my phone too: ntfy topic kh-e2e-phone.',
  away: 'I am away for an hour.',
  back: 'I am back.',
  pickA: 'menu-a: SQLite, the first option.',
  goodnight: 'menu-a: yes, keep a migration log. Good night, I am away until morning.',
  morning: 'Good morning. What is the picture?',
} as const;

export interface TurnContext {
  watchCommand: string;
  /** The Hand's own `hand` command, as the kit's CLAUDE.md gives it (its Bash runs it). */
  handCommand: string;
  briefs: { a: string; b: string; c: string };
  calls: () => HandCall[];
}

/** The Hand's turn for each thing the person says. */
function workflowTurn(name: keyof typeof SAY, ctx: TurnContext): Turn {
  switch (name) {
    case 'start':
      return {
        steps: [
          monitorStep(ctx.watchCommand),
          mcp('backlog_add', () => ({ id: 'menu-a', title: 'Pick the database', project: 'repo', brief: ctx.briefs.a })),
          mcp('backlog_add', () => ({ id: 'park-b', title: 'Set up the queue', project: 'repo', brief: ctx.briefs.b })),
          mcp('dispatch', () => ({ item: 'menu-a', agent: 'mock', backend: 'tmux' })),
          mcp('dispatch', () => ({ item: 'park-b', agent: 'mock', backend: 'tmux' })),
          mcp('approve', () => ({ id: 'menu-a' })),
          mcp('approve', () => ({ id: 'park-b' })),
        ],
        say: () => 'Both started: menu-a picks the database, park-b sets up the queue. The fleet wakes me when one needs you.',
      };
    case 'meanwhile':
      return {
        steps: [mcp('status')],
        say: (c) => (resultJson(c[0]) as { id: string; stage: string; state: string }[]).map((r) => `${r.id}: ${r.stage} (${r.state})`).join('; '),
      };
    case 'holdB':
      return {
        steps: [mcp('backlog_hold', () => ({ id: 'park-b', kind: 'person', reason: 'the person decides on the queue after lunch' }))],
        say: () => "park-b's item is held for you; the worker keeps its open decision.",
      };
    case 'decideB':
      return {
        steps: [mcp('decide', () => ({ key: openDecision(ctx.calls()).key, answer: 'Redis' }))],
        say: () => 'Sent Redis to park-b.',
      };
    case 'landB':
      // The report through the tool (a file read of the state directory would ask permission), the
      // worker's page for the diff, then the landing's evidence.
      return {
        steps: [mcp('report', () => ({ id: 'park-b' })), mcp('review_url', () => ({ id: 'park-b' })), mcp('land', () => ({ id: 'park-b' }))],
        say: (c) => {
          const report = resultJson(c[0]) as { text: string };
          const e = resultJson(c[2]).evidence as { commits: number; branch: string; diffStat: string };
          return [report.text, `park-b: ${e.commits} commit on ${e.branch} (${e.diffStat.trim().split('\n').at(-1)}); the diff: ${resultJson(c[1]).url}. Approve the landing?`].join('\n');
        },
      };
    case 'approveB':
      return { steps: [mcp('approve', () => ({ id: 'park-b' }))], say: () => 'Landed park-b on main.' };
    case 'queueC':
      return {
        steps: [
          mcp('backlog_add', () => ({ id: 'later-c', title: 'Add a health page', project: 'repo', brief: ctx.briefs.c })),
          mcp('survey'),
        ],
        say: (c) => {
          const s = resultJson(c[1]) as { next?: { text: string }[] };
          return `Left: ${(s.next ?? []).map((n) => n.text).join('; ') || 'nothing'}`;
        },
      };
    case 'phone':
      // Where alerts go is the person's setting: the kit denies it to the Hand's shell (no prompt).
      return {
        steps: [{ name: 'Bash', input: () => ({ command: `${ctx.handCommand} notify add ntfy kh-e2e-phone`, description: 'Add the phone as a notification target' }) }],
        say: (c) => (c[0]!.result?.isError ? `That one is yours to set: run \`hand notify add ntfy kh-e2e-phone\` yourself.` : 'Added.'),
      };
    case 'away':
      return {
        steps: [mcp('afk_on', () => ({ note: 'back in an hour' }))],
        say: () => 'You are away: I keep watching and decide nothing that is yours.',
      };
    case 'back':
      return {
        steps: [mcp('afk_off')],
        say: (c) => {
          const a = (resultJson(c[0]) as { account: { summary: string; waitingOnYou: { question?: string; text: string }[] } }).account;
          // The account's question is already quoted and attributed (`worker menu-a wrote: "…"`).
          return [`Welcome back. ${a.summary}`, ...a.waitingOnYou.map((w) => `Waits on you: ${w.question ?? w.text}`)].join('\n');
        },
      };
    case 'pickA':
      return {
        steps: [mcp('read', () => ({ id: 'menu-a' })), mcp('keys', () => ({ id: 'menu-a', key: 'enter' }))],
        say: () => 'Sent SQLite to menu-a.',
      };
    case 'goodnight':
      return {
        steps: [mcp('keys', () => ({ id: 'menu-a', key: 'enter' })), mcp('afk_on', () => ({ note: 'until morning' }))],
        say: () => 'Sent yes to menu-a. Good night: the account waits for you.',
      };
    case 'morning':
      return {
        steps: [
          monitorStep(ctx.watchCommand),
          mcp('survey'),
          mcp('report', () => ({ id: 'menu-a' })),
        ],
        say: (c) => {
          const s = resultJson(c[1]) as { needsYou: { text: string }[] };
          return [`Good morning. Waits on you: ${s.needsYou.map((n) => n.text).join('; ') || 'nothing'}.`, resultJson(c[2]).text].join('\n');
        },
      };
  }
}

function openDecision(calls: HandCall[]): { key: string } {
  const listed = calls.find((c) => c.turn === 'wake:b-parked' && c.name === 'mcp__hand__decisions');
  const open = (resultJson(listed) as { key: string; worker: string }[]).find((d) => d.worker === 'park-b');
  if (!open) throw new Error('no open decision of park-b was listed');
  return open;
}

/** A wake line names its worker and what it needs; the Hand's turn for each event it knows. */
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
  return fleetLineTurn(event);
}

/** The scripted Hand's reactions: one turn per thing the person says, one per event of a wake line. */
export const workflowTurns = handTurns(SAY, workflowTurn, wakeTurn);
