/**
 * What the scripted Hand does in the-hand-runs-the-seeds-kit.test.ts: one turn per thing the
 * person says (setup, update, counsel, parley, the pulse, a second landing) and one per wake line.
 * The Hand's own words quote the tools' results; the steps are what each skill of the kit says.
 */
import type { HandCall, Turn } from './hand-script.ts';
import { fleetLineTurn, handTurns, mcp, monitorStep, resultJson } from './hand-script.ts';

export const SAY = {
  setup: 'Set it up.',
  update: 'Am I on the latest kingshand?',
  counsel: 'Break this story down with a worker: SPLIT-STORIES, the checkout stories.',
  close: 'Close split-1.',
  quick: 'Quick mode. Quick one for site: add a robots file (ROBOTS-FILE). I approve the brief.',
  landQuick: 'Land q1; I approve the landing.',
  pulse: 'Pulse every two seconds.',
  two: 'Two more for shop: CHANGE-A and CHANGE-B. I approve both briefs.',
  landA: 'Land a1; I approve.',
  landB: 'Land b1.',
  rebaseB: 'Yes, rebase b1 onto main and land it; I approve.',
} as const;

export interface KitContext {
  watchCommand: string;
  handCommand: string;
  /** The person's kingshand checkout (a stand-in with an uncommitted change). */
  checkout: string;
  siteRepo: string;
  shopRepo: string;
  briefs: { split: string; quick: string; a: string; b: string };
  calls: () => HandCall[];
}

const bash = (command: () => string, description: string) => ({ name: 'Bash', input: () => ({ command: command(), description }) });

/** The Hand's turn for each thing the person says: what the kit's skills tell it to do. */
function kitTurn(name: keyof typeof SAY, ctx: KitContext): Turn {
  switch (name) {
    case 'setup':
      return {
        steps: [
          monitorStep(ctx.watchCommand),
          bash(() => `${ctx.handCommand} doctor --json`, 'Check this machine'),
        ],
        say: (c) => {
          const d = JSON.parse(c[1]!.result!.content) as { checks: { ok: boolean }[] };
          return `${d.checks.filter((x) => x.ok).length} of ${d.checks.length} checks pass. Workers run under posture off in kingshand's sandbox; hand project set changes it.`;
        },
      };
    case 'update':
      return {
        steps: [bash(() => `${ctx.handCommand} update --json --checkout ${ctx.checkout}`, 'Update kingshand')],
        // A refusal exits 1: Claude Code hands back "Exit code 1" before the command's output.
        say: (c) => {
          const out = c[0]!.result!.content;
          return `Not updated: ${(JSON.parse(out.slice(out.indexOf('{'))) as { reason: string }).reason}`;
        },
      };
    case 'counsel':
      return {
        steps: [
          mcp('backlog_add', () => ({ id: 'split-1', title: 'Divide the checkout stories', project: 'shop', brief: ctx.briefs.split })),
          mcp('dispatch', () => ({ item: 'split-1', readOnly: true, agent: 'mock', backend: 'tmux' })),
          mcp('approve', () => ({ id: 'split-1' })),
        ],
        say: () => 'One read-only worker divides the stories; I bring you its map.',
      };
    case 'close':
      return { steps: [mcp('close', () => ({ id: 'split-1' }))], say: (c) => `Closed split-1; its report is kept in ${resultJson(c[0]).reportArchived}.` };
    case 'quick':
      return {
        steps: [
          mcp('dispatch', () => ({ id: 'q1', repo: ctx.siteRepo, brief: ctx.briefs.quick, quick: true, agent: 'mock', backend: 'tmux' })),
          mcp('approve', () => ({ id: 'q1' })),
        ],
        say: () => 'q1 started, quick: no review gate.',
      };
    case 'landQuick':
      return { steps: [mcp('land', () => ({ id: 'q1' })), mcp('approve', () => ({ id: 'q1' }))], say: () => 'q1 landed as a draft pull request.' };
    case 'pulse': {
      const monitorTask = () => {
        const started = ctx.calls().find((c) => c.name === 'Monitor' && c.result && !c.result.isError);
        const id = /task (\w+)/.exec(started?.result?.content ?? '')?.[1];
        if (!id) throw new Error('no Monitor task to stop');
        return id;
      };
      return {
        steps: [
          { name: 'TaskStop', input: () => ({ task_id: monitorTask() }) },
          monitorStep(ctx.watchCommand.replace('--pulse 10m', '--pulse 2s')),
        ],
        say: () => 'The pulse now comes every two seconds, when something changed.',
      };
    }
    case 'two':
      return {
        steps: [
          mcp('dispatch', () => ({ id: 'a1', repo: ctx.shopRepo, brief: ctx.briefs.a, agent: 'mock', backend: 'tmux' })),
          mcp('dispatch', () => ({ id: 'b1', repo: ctx.shopRepo, brief: ctx.briefs.b, agent: 'mock', backend: 'tmux' })),
          mcp('approve', () => ({ id: 'a1' })),
          mcp('approve', () => ({ id: 'b1' })),
        ],
        say: () => 'a1 and b1 started.',
      };
    case 'landA':
      return { steps: [mcp('land', () => ({ id: 'a1' })), mcp('approve', () => ({ id: 'a1' }))], say: () => 'a1 landed on main.' };
    case 'landB':
      return {
        steps: [mcp('land', () => ({ id: 'b1' }))],
        // The refusal says how it applies now: quoted to the person, the rebase is theirs to say.
        say: (c) => `b1 cannot land as it is: ${c[0]!.result!.content.slice(0, 200)} Rebase it?`,
      };
    case 'rebaseB':
      return { steps: [mcp('land', () => ({ id: 'b1', rebase: true })), mcp('approve', () => ({ id: 'b1' }))], say: () => 'b1 rebased onto main and landed.' };
  }
}

function wakeTurn(event: string): { key: string; turn: Turn } {
  if (event.includes('split-1 finished its read-only report')) {
    return { key: 'wake:split-1 done', turn: { steps: [mcp('report', () => ({ id: 'split-1' }))], say: (c: HandCall[]) => `${resultJson(c[0]).text}\nClose it?` } };
  }
  return fleetLineTurn(event);
}

/** The scripted Hand's reactions: one turn per thing the person says, one per wake line. */
export const kitTurns = handTurns(SAY, kitTurn, wakeTurn);
