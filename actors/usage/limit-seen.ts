/**
 * A usage limit a worker's agent hit, as its screen (or its StopFailure hook) said it (issue 21
 * item 5): the turn ended in `agent-error` and the message is the plan's limit, not an API error.
 * It feeds `hand usage` beside the configured source, and dispatch's warnings: the person learns
 * the limit from the worker that met it even when no usage source is configured. The words are
 * the agent's; they are quoted, never parsed into a time we would act on (a reset phrase such as
 * "resets 3pm (Europe/Paris)" is shown as written).
 */
import type { Condition } from '../../contract/vocabulary.ts';
import { quoteWorker } from '../../contract/worker-words.ts';
import type { LimitSeen } from '../../contract/methods/work.ts';

/** What a plan's limit says, across Claude Code releases; an API error or an overload is not a limit. */
const LIMIT = /\busage limit\b|\bhit your (?:usage |weekly |session )?limit\b|\b(?:5-hour|five-hour|weekly|session|opus) limit (?:reached|hit)\b|\bout of (?:extra )?usage\b|\b(?:usage|credit|spend) limit reached\b/i;
/** The reset phrase as the agent printed it: "resets 3pm (Europe/Paris)", "will reset at 5pm". */
const RESETS = /\b(?:resets?|will reset)\s+(?:at\s+|on\s+|in\s+)?([^·∙|.]+?)\s*(?:[·∙|.]|$)/i;
/** A quoted message is bounded: it is the agent's words, shown, not stored whole. */
const MAX_SAID = 200;

export type { LimitSeen };

export interface ViewForLimit {
  id: string;
  agent: string;
  condition: Condition;
  problem: string | null;
  updatedAt: number;
}

const AGENT_ERROR_PREFIX = 'agent error: ';

/** The message of a worker whose turn ended on a usage limit, or null. */
export function limitMessage(v: ViewForLimit): string | null {
  if (v.condition !== 'agent-error' || !v.problem) return null;
  const said = v.problem.startsWith(AGENT_ERROR_PREFIX) ? v.problem.slice(AGENT_ERROR_PREFIX.length) : v.problem;
  return LIMIT.test(said) ? said : null;
}

/** Every worker that shows a usage limit now, newest first. */
export function limitsSeen(views: readonly ViewForLimit[]): LimitSeen[] {
  const out: LimitSeen[] = [];
  for (const v of views) {
    const said = limitMessage(v);
    if (said === null) continue;
    const bounded = said.length > MAX_SAID ? `${said.slice(0, MAX_SAID - 1)}…` : said;
    out.push({ worker: v.id, agent: v.agent, said: bounded, resets: RESETS.exec(said)?.[1]?.trim() ?? null, seenAt: new Date(v.updatedAt).toISOString() });
  }
  return out.sort((a, b) => b.seenAt.localeCompare(a.seenAt));
}

/** One line for `hand usage` and the digest: which worker met the limit, in its own words. */
export function limitLine(seen: readonly LimitSeen[]): string | null {
  const first = seen[0];
  if (!first) return null;
  const more = seen.length > 1 ? ` (and ${seen.length - 1} more worker${seen.length > 2 ? 's' : ''})` : '';
  return `usage limit met${more}: ${quoteWorker(first.worker, first.said)}`;
}
