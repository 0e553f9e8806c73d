/**
 * The field readers of the daemon's edge: each method's parser (daemon/<family>/<family>-methods.ts) reads its raw
 * wire params with these, once, into the method's typed params (contract/methods.ts); each
 * refusal names the field and the fix. Past the edge nothing re-checks a type.
 */
import { UsageError } from '../contract/errors.ts';
import { MAX_DURATION_MS } from '../io/time/long-timer.ts';
import { UNCLASSIFIED_MS } from '../machines/worker.constants.ts';
import {
  AGENTS, BACKENDS, POSTURES, isOneOf,
  type AgentName, type BackendName, type Posture,
} from '../contract/vocabulary.ts';
import { badAgent, badBackend, badPosture } from '../contract/refusals.ts';

import type { WireObject } from '../contract/protocol.ts';
import type { DispatchParams } from '../contract/methods.ts';

type Params = WireObject;

/** 1-48 letters, digits, '-' or '_', starting with a letter or digit (it becomes a branch name). */
export const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export function str(params: Params, key: string, required = true): string {
  const v = params[key];
  if (typeof v === 'string' && v.length > 0) return v;
  if (!required && (v === undefined || v === null)) return '';
  throw new UsageError('bad-request', `missing or invalid ${key}`, { key });
}

/**
 * A path a person names (a repository, a brief, a read path): a control character in it (a
 * newline) is refused here, naming it — git's answers are line-based, and such a path ended in
 * "internal error … ENOENT" far from where it came in (issue 43).
 */
export function pathStr(params: Params, key: string, required = true): string {
  const v = str(params, key, required);
  const bad = /[\u0000-\u001f\u007f]/.exec(v);
  if (bad) {
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UsageError('bad-path', `the ${key} path ${JSON.stringify(v)} holds a control character (${code}${bad[0] === '\n' ? ', a newline' : ''}) at position ${bad.index}; kingshand cannot name it safely to git or a terminal. Rename it without one, then try again.`, { key, position: bad.index, char: code });
  }
  return v;
}

/** A positive number; durations are bounded and refusals name the flag a person typed. */
export function num(params: Params, key: string, fallback: number): number {
  return positiveParam(params, key, fallback);
}

/** The shortest stall or unclear threshold: a second, longer than any screen's repaint. */
export const MIN_THRESHOLD_MS = 1000;

/** Wire name → what a person typed, and whether it is a duration in ms. */
const FLAGS: Record<string, { flag: string; duration: boolean; minMs?: number }> = {
  timeoutMs: { flag: '--timeout', duration: true },
  // A threshold shorter than a screen's repaint stalls (or wakes a person for) every worker at
  // once: `--stall 1ms` was accepted (issue 25 #5).
  stallMs: { flag: '--stall', duration: true, minMs: MIN_THRESHOLD_MS },
  unclassifiedMs: { flag: '--unclear', duration: true, minMs: MIN_THRESHOLD_MS },
  scrollback: { flag: '--scrollback', duration: false },
};

export function positiveParam(params: Params, key: string, fallback: number): number {
  const v = params[key];
  if (v === undefined || v === null) return fallback;
  const known = Object.hasOwn(FLAGS, key) ? FLAGS[key] : undefined;
  const flag = known?.flag ?? key;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new UsageError('bad-request', `${flag} must be positive (got ${JSON.stringify(v)})${known?.duration ? ', e.g. 30s or 20m' : ''}.`, { key, flag });
  }
  if (known?.minMs !== undefined && v < known.minMs) {
    throw new UsageError('duration-too-short', `${flag} ${v}ms is shorter than the minimum of ${known.minMs / 1000}s. Give e.g. 30s or 20m.`, { key, flag, minMs: known.minMs });
  }
  if (known?.duration && v > MAX_DURATION_MS) {
    throw new UsageError('duration-too-long', `${flag} is longer than the maximum of ${MAX_DURATION_MS / 3_600_000}h (365 days).`, { key, flag, maxMs: MAX_DURATION_MS });
  }
  return v;
}

/** A positive number when given (bounded like positiveParam), undefined when absent. */
export function optPositive(params: Params, key: string): number | undefined {
  const v = params[key];
  return v === undefined || v === null ? undefined : positiveParam(params, key, 0);
}

/** An environment as sent by the CLI: string values only; undefined when none was sent. */
export function stringsParam(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

/** A non-empty string, or undefined (anything else is read as absent, as the handlers always did). */
export const optText = (params: Params, key: string): string | undefined => {
  const v = params[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** Only `true` is true (a flag sent as "yes" or 1 is not). */
export const flag = (params: Params, key: string): boolean => params[key] === true;

export const idParam = (params: Params): string => str(params, 'id');

export function workerIdParam(params: Params): string {
  const id = str(params, 'id');
  if (!WORKER_ID.test(id)) {
    throw new UsageError('bad-worker-id', `worker id ${JSON.stringify(id)} is not usable: use 1-48 letters, digits, '-' or '_', starting with a letter or digit (it becomes the branch worktree-<id>).`, { id });
  }
  return id;
}

/**
 * `--agent` when given, else undefined: absent is not claude here, because a dispatch without
 * --agent runs its project's default agent (decided in dispatch.ts, once the project is known).
 */
export function agentParam(params: Params): AgentName | undefined {
  const agent = str(params, 'agent', false);
  if (!agent) return undefined;
  if (!isOneOf(AGENTS, agent)) throw badAgent(agent);
  return agent;
}

export function backendParam(params: Params): BackendName {
  const backend = str(params, 'backend', false) || 'tmux';
  if (!isOneOf(BACKENDS, backend)) throw badBackend(backend);
  return backend;
}

export function postureParam(params: Params): Posture {
  const posture = str(params, 'posture', false) || 'local-only';
  if (!isOneOf(POSTURES, posture)) throw badPosture(posture);
  return posture;
}

export interface DispatchRequest {
  id: string;
  repo: string;
  brief: string;
  readPaths: string[];
  /** `--agent`; absent = the project's default agent, else claude (dispatch.ts chooses). */
  agent?: AgentName;
  backend: BackendName;
  stallMs: number;
  /** Bound on a readable screen that could not be told before a person is woken. */
  unclassifiedMs: number;
  /** The environment of the person's `hand dispatch` call. */
  env: Record<string, string>;
  /** `--env K=V` additions, applied after every default (e.g. CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=1). */
  envAdd?: Record<string, string>;
  /** no-mistakes-prod-only: how the task is classified (internal ships direct-PR). */
  taskKind?: string;
  /** --workspace: the Hand workspace whose data/ holds the index and standing files. */
  workspace?: string;
  /** --host: where the worker runs (absent: the project's default host, else local). */
  host?: string;
  /** --strict: an agent that failed its calibration is refused, not only warned about. */
  strict?: boolean;
  /** --quick (parley): no review gate, the quick marker in the brief, a draft pull request. */
  quick?: boolean;
  /** --read-only (counsel): read and report; nothing lands. */
  readOnly?: boolean;
}

/**
 * A dispatch's params (types checked at the edge) made whole: the id, repo and brief a backlog
 * item may have supplied are required now, and the defaults are applied. It runs after the usage
 * and item rules (cross-rules.ts), so those refusals come first, as before.
 */
export function dispatchRequest(p: DispatchParams): DispatchRequest {
  return {
    id: workerIdParam({ id: p.id }),
    repo: pathStr({ repo: p.repo }, 'repo'),
    brief: pathStr({ brief: p.brief }, 'brief'),
    readPaths: (p.readPaths ?? []).map((r) => pathStr({ 'read path': r }, 'read path')),
    ...(p.agent !== undefined && { agent: p.agent }),
    backend: p.backend ?? 'tmux',
    stallMs: p.stallMs ?? 20 * 60_000,
    unclassifiedMs: p.unclassifiedMs ?? UNCLASSIFIED_MS,
    // No environment sent: the daemon's own (a caller that is not the CLI).
    env: p.env ?? { ...(process.env as Record<string, string>) },
    envAdd: p.envAdd,
    taskKind: p.taskKind,
    workspace: p.workspace,
    ...(p.host !== undefined && { host: p.host }),
    ...(p.strict === true && { strict: true }),
    ...(p.quick === true && { quick: true }),
    ...(p.readOnly === true && { readOnly: true }),
  };
}

/** A required text field (the work and host methods): its refusal names what it is. */
export function text(p: Params, key: string, what: string): string {
  const v = p[key];
  if (typeof v === 'string' && v.trim()) return v;
  throw new UsageError('bad-request', `missing ${what} (${key})`, { key });
}

/** An optional text field (the work and host methods): blank is absent. */
export const opt = (p: Params, key: string): string | undefined => {
  const v = p[key];
  return typeof v === 'string' && v.trim() ? v : undefined;
};

export const stringList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
