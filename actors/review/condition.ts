/**
 * What the review page says about a worker: one label for its condition, and which group of the
 * fleet view it belongs to. Built on conditionOf (actors/daemon/wait.ts), the one place that
 * reads a stage as a condition, so the page and `hand wait` never disagree.
 */
import { conditionOf } from '../wait-report.ts';
import type { WorkerViewLike } from '../fleet-api.ts';
import { AGENT_ERROR_PREFIX } from '../../contract/worker-words.ts';
import { backgroundWords } from '../../contract/methods/fleet.ts';

export type Group = 'attention' | 'running' | 'finished';

export interface Described {
  /** Short, for badges and the <title>: "blocked: question", "landing approval", "working". */
  label: string;
  /** CSS modifier of the badge. */
  tone: 'attention' | 'running' | 'idle' | 'finished' | 'bad';
  group: Group;
  /** What the person is asked, when something waits on them. */
  ask: string | null;
  /**
   * True when `ask` is the worker's own words (the question or last line on its screen, not a
   * gate's): the page shows it quoted and attributed (said-html.ts), never in its own voice.
   */
  asksOnScreen?: boolean;
}

export function describe(v: WorkerViewLike): Described {
  const cond = conditionOf(v);
  if (v.gate) {
    const ask = v.gate === 'brief approval' ? 'Approve or reject the brief before anything is made.' : 'Approve or reject the landing of this branch.';
    return { label: v.gate, tone: 'attention', group: 'attention', ask };
  }
  if (v.waitingOn) return { label: 'open decision', tone: 'attention', group: 'attention', ask: `Waiting on the decision ${v.waitingOn}.` };
  if (cond === 'blocked') return { label: `blocked${v.blockedReason ? `: ${v.blockedReason}` : ''}`, tone: 'attention', group: 'attention', ask: v.lastActivity || 'The worker waits for input.', asksOnScreen: true };
  if (cond === 'unclassified') return { label: 'could not tell', tone: 'attention', group: 'attention', ask: 'Its screen has not been readable as any known state for a while: look at it.' };
  if (cond === 'agent-error') {
    // The error's line is the worker's screen: shown as its words, not the page's.
    const line = v.problem?.startsWith(AGENT_ERROR_PREFIX) ? v.problem.slice(AGENT_ERROR_PREFIX.length) : null;
    if (line) return { label: 'agent error', tone: 'bad', group: 'attention', ask: line, asksOnScreen: true };
    return { label: 'agent error', tone: 'bad', group: 'attention', ask: v.problem ?? 'Its last turn ended in an API error or a usage limit.' };
  }
  if (cond === 'stalled') return { label: 'stalled', tone: 'bad', group: 'attention', ask: 'No change on its screen for too long.' };
  if (cond === 'wait-failed') return { label: 'could not tell', tone: 'bad', group: 'attention', ask: v.problem ?? 'Its screen could not be read.' };
  if (cond === 'gone') return { label: v.stage.split('.')[0]!, tone: v.marks.includes('failed') || v.marks.includes('lost') ? 'bad' : 'finished', group: 'finished', ask: null };
  if (cond === 'settled' && v.marks.includes('landable')) return { label: 'done', tone: 'finished', group: 'finished', ask: null };
  if (cond === 'settled') return { label: 'idle', tone: 'idle', group: 'running', ask: null };
  const top = v.stage.split('.')[0]!;
  if (v.background) return { label: backgroundWords(v.background), tone: 'running', group: 'running', ask: null };
  return { label: v.marks.includes('working') ? 'working' : top, tone: 'running', group: 'running', ask: null };
}

const GROUP_ORDER: Record<Group, number> = { attention: 0, running: 1, finished: 2 };

/** What waits on the person first, then running, then finished; newest change first within a group. */
export function fleetOrder(views: WorkerViewLike[]): WorkerViewLike[] {
  return [...views].sort((a, b) => GROUP_ORDER[describe(a).group] - GROUP_ORDER[describe(b).group] || b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
}
