/**
 * What the review page says about a worker: one label for its condition, and which group of the
 * fleet view it belongs to. Built on conditionOf (actors/wait-report.ts), the one place that
 * reads a stage as a condition, so the page and `hand wait` never disagree; the labels are the
 * words of contract/state-words.ts, which `hand audience` and the page's journal say too.
 */
import { conditionOf } from '../wait-report.ts';
import type { WorkerViewLike } from '../fleet-api.ts';
import { AGENT_ERROR_PREFIX } from '../../contract/worker-words.ts';
import { FINAL_KINDS, STATE_WORDS, stateKindOf } from '../../contract/state-words.ts';
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
  const kind = stateKindOf(v);
  if (v.gate) {
    const ask = kind === 'brief-gate' ? 'Approve or reject the brief before anything is made.' : 'Approve or reject the landing of this branch.';
    return { label: STATE_WORDS[kind], tone: 'attention', group: 'attention', ask };
  }
  if (v.waitingOn) return { label: STATE_WORDS.parked, tone: 'attention', group: 'attention', ask: `Waiting on the decision ${v.waitingOn}.` };
  if (cond === 'blocked') return { label: `${STATE_WORDS.blocked}${v.blockedReason ? `: ${v.blockedReason}` : ''}`, tone: 'attention', group: 'attention', ask: v.lastActivity || 'The worker waits for input.', asksOnScreen: true };
  if (cond === 'unclassified') return { label: STATE_WORDS.unclassified, tone: 'attention', group: 'attention', ask: 'Its screen has not been readable as any known state for a while: look at it.' };
  if (cond === 'agent-error') {
    // The error's line is the worker's screen: shown as its words, not the page's.
    const line = v.problem?.startsWith(AGENT_ERROR_PREFIX) ? v.problem.slice(AGENT_ERROR_PREFIX.length) : null;
    if (line) return { label: STATE_WORDS['agent-error'], tone: 'bad', group: 'attention', ask: line, asksOnScreen: true };
    return { label: STATE_WORDS['agent-error'], tone: 'bad', group: 'attention', ask: v.problem ?? 'Its last turn ended in an API error or a usage limit.' };
  }
  if (cond === 'stalled') return { label: STATE_WORDS.stalled, tone: 'bad', group: 'attention', ask: 'No change on its screen for too long.' };
  if (cond === 'wait-failed') return { label: STATE_WORDS['wait-failed'], tone: 'bad', group: 'attention', ask: v.couldNotTell ? `Its screen cannot be read now: ${v.couldNotTell}. It is read again when the server answers.` : v.problem ?? 'Its terminal server did not answer when its pane was looked for: its screen could not be read.' };
  if (kind === 'stuck') return { label: STATE_WORDS.stuck, tone: 'bad', group: 'attention', ask: `It did not leave after /exit; its pane and worktree are left alone. Stop it again: hand stop ${v.id}.` };
  if (cond === 'gone') {
    // A process that ended before its machine moved on has exited, whatever state it was in
    // (a teardown is on its way out: still stopping).
    const end = FINAL_KINDS.includes(kind) || kind === 'stopping' ? kind : 'exited';
    return { label: STATE_WORDS[end], tone: end === 'failed' || end === 'lost' ? 'bad' : 'finished', group: 'finished', ask: null };
  }
  if (kind === 'done') return { label: STATE_WORDS.done, tone: 'finished', group: 'finished', ask: null };
  if (cond === 'settled') return { label: STATE_WORDS[kind], tone: 'idle', group: 'running', ask: null };
  if (v.background) return { label: backgroundWords(v.background), tone: 'running', group: 'running', ask: null };
  return { label: STATE_WORDS[kind], tone: 'running', group: 'running', ask: null };
}

const GROUP_ORDER: Record<Group, number> = { attention: 0, running: 1, finished: 2 };

/** What waits on the person first, then running, then finished; newest change first within a group. */
export function fleetOrder(views: WorkerViewLike[]): WorkerViewLike[] {
  return [...views].sort((a, b) => GROUP_ORDER[describe(a).group] - GROUP_ORDER[describe(b).group] || b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
}
