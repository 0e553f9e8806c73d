/**
 * The daemon's edge: each method's wire params are parsed ONCE, here, into a typed request.
 * Past this file nothing re-checks a backend, an agent, a posture or an id: the handlers and
 * dispatchWorker take the typed request and trust it.
 */
import { UsageError } from '../../contract/errors.ts';
import { MAX_DURATION_MS } from '../../io/time/long-timer.ts';
import { UNCLASSIFIED_MS } from '../../machines/worker.constants.ts';
import { checkSendableText } from '../../io/text/sendable-text.ts';
import type { Key } from '../../io/terminal/types.ts';
import { parseOneKey } from '../../io/terminal/keys.ts';
import {
  AGENTS, BACKENDS, POSTURES, UNTILS, isOneOf,
  type AgentName, type BackendName, type Posture, type Until,
} from '../../contract/vocabulary.ts';
import { badAgent, badBackend, badPosture, badUntil } from '../../contract/refusals.ts';

type Params = Record<string, unknown>;

/** 1-48 letters, digits, '-' or '_', starting with a letter or digit (it becomes a branch name). */
export const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export function str(params: Params, key: string, required = true): string {
  const v = params[key];
  if (typeof v === 'string' && v.length > 0) return v;
  if (!required && (v === undefined || v === null)) return '';
  throw new UsageError('bad-request', `missing or invalid ${key}`, { key });
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

export function positiveParam(params: Record<string, unknown>, key: string, fallback: number): number {
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

/** The caller's environment, as sent by the CLI: string values only. */
function envParam(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ...(process.env as Record<string, string>) };
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

export const idParam = (params: Params): string => str(params, 'id');

export function workerIdParam(params: Params): string {
  const id = str(params, 'id');
  if (!WORKER_ID.test(id)) {
    throw new UsageError('bad-worker-id', `worker id ${JSON.stringify(id)} is not usable: use 1-48 letters, digits, '-' or '_', starting with a letter or digit (it becomes the branch worktree-<id>).`, { id });
  }
  return id;
}

export function agentParam(params: Params): AgentName {
  const agent = str(params, 'agent', false) || 'claude';
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
  agent: AgentName;
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
}

export function parseDispatch(params: Params): DispatchRequest {
  return {
    id: workerIdParam(params),
    repo: str(params, 'repo'),
    brief: str(params, 'brief'),
    readPaths: Array.isArray(params.readPaths) ? (params.readPaths as string[]) : [],
    agent: agentParam(params),
    backend: backendParam(params),
    stallMs: num(params, 'stallMs', 20 * 60_000),
    unclassifiedMs: num(params, 'unclassifiedMs', UNCLASSIFIED_MS),
    env: envParam(params.env),
    envAdd: params.envAdd ? envParam(params.envAdd) : undefined,
    taskKind: typeof params.taskKind === 'string' ? params.taskKind : undefined,
    workspace: typeof params.workspace === 'string' && params.workspace !== '' ? params.workspace : undefined,
  };
}

/** env: the caller's environment (its PATH finds gh and no-mistakes); the daemon's own is kept from its start. */
export interface AnnexRequest { repo: string; posture: Posture; name: string; yolo: boolean; env?: Record<string, string> }

export function parseAnnex(params: Params): AnnexRequest {
  return { repo: str(params, 'repo'), posture: postureParam(params), name: str(params, 'name', false), yolo: params.yolo === true, ...(params.env ? { env: envParam(params.env) } : {}) };
}

export interface WaitRequest { id: string; until: Until; timeoutMs: number }

export function parseWait(params: Params): WaitRequest {
  const id = idParam(params);
  const until = str(params, 'until', false) || 'any';
  if (!isOneOf(UNTILS, until)) throw badUntil(until);
  return { id, until, timeoutMs: num(params, 'timeoutMs', 30 * 60_000) };
}

export interface SendRequest { id: string; text: string; allowNonEmptyBox: boolean }

export function parseSend(params: Params): SendRequest {
  const id = idParam(params);
  // Text is text: control bytes, empty and whitespace-only text are refused here (issue 17 #4, #10).
  return { id, text: checkSendableText(typeof params.text === 'string' ? params.text : '', id), allowNonEmptyBox: params.allowNonEmptyBox === true };
}

export interface KeysRequest { id: string; key: Key; allowNonEmptyBox: boolean }

export function parseKeys(params: Params): KeysRequest {
  return { id: idParam(params), key: parseOneKey(str(params, 'key')), allowNonEmptyBox: params.allowNonEmptyBox === true };
}

export interface ReadRequest { id: string; scrollback: number | undefined }

export function parseRead(params: Params): ReadRequest {
  return { id: idParam(params), scrollback: params.scrollback === undefined ? undefined : num(params, 'scrollback', 0) };
}

export interface RejectRequest { id: string; reason: string }

export function parseReject(params: Params): RejectRequest {
  const id = idParam(params);
  const reason = typeof params.reason === 'string' ? params.reason.trim() : '';
  if (!reason) throw new UsageError('reason-required', `a rejection needs a reason the worker can act on: hand reject ${id} --reason "<why>".`, { id });
  return { id, reason };
}

export interface AnswerParams { id: string; option: number; fingerprint: string }

/** `answer`: the option's number as the dialog shows it, and the fingerprint of the dialog the caller saw. */
export function parseAnswer(params: Params): AnswerParams {
  const id = idParam(params);
  const option = typeof params.option === 'string' && /^\d{1,2}$/.test(params.option.trim()) ? Number(params.option) : params.option;
  if (typeof option !== 'number' || !Number.isInteger(option) || option < 1) {
    throw new UsageError('bad-option', `the option is the number the dialog shows (1, 2, …): hand answer ${id} <n> --fingerprint <fp>.`, { id });
  }
  const fingerprint = typeof params.fingerprint === 'string' ? params.fingerprint.trim() : '';
  if (!/^[0-9a-f]{16}$/.test(fingerprint)) {
    throw new UsageError('fingerprint-required', `answer needs the fingerprint of the dialog you read (dialog.fingerprint in hand read ${id} --json), so a dialog that changed is never answered.`, { id });
  }
  return { id, option, fingerprint };
}
