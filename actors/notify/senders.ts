/**
 * Sending one notification to one target, bounded in time, never throwing: the result says
 * whether the target took it. Errors are scrubbed of the target's URL (it may hold a token).
 */
import { spawn } from 'node:child_process';
import type { Target } from './targets.ts';

export interface Notification {
  worker: string;
  project: string | null;
  /** Where the worker runs: `local` or a host's name (issue 28); absent on a test notification. */
  host?: string;
  condition: string;
  reason: string;
  /** The question the worker asks, or the screen's last line. */
  question: string | null;
  lastLine: string | null;
  /** A `hand …` command that acts on it. */
  command: string;
  at: string;
  test?: boolean;
  /**
   * Answers the person can give from the notification (issue 42): each URL holds a capability for
   * that one answer (POST it). Present only with a public URL and a dialog or a parked decision.
   */
  actions?: { kind: string; label: string; url: string; method: 'POST' | 'GET' }[];
  /** A one-time link that signs in on the worker's page (GET it, in a browser). */
  view?: string;
}

/** ntfy shows at most three action buttons; the page (the view link, a tap on the notification) has the rest. */
export const NTFY_MAX_ACTIONS = 3;

/**
 * ntfy's Actions header: `http, "label", url, method=POST, clear=true; …`, labels stripped of its
 * separators; with a button to spare, a `view, "Open page", url` for the view link too (a tap on
 * the notification opens it as well: Click).
 */
export function ntfyActions(n: Notification): string | null {
  const list = (n.actions ?? []).slice(0, NTFY_MAX_ACTIONS);
  const buttons = list.map((a) => `http, "${headerSafe(a.label).replace(/["',;]/g, ' ')}", ${a.url}, method=${a.method}, clear=true`);
  if (n.view && buttons.length > 0 && buttons.length < NTFY_MAX_ACTIONS) buttons.push(`view, "Open page", ${n.view}, clear=true`);
  return buttons.length ? buttons.join('; ') : null;
}

/** The actions for a command target, in its environment (never its argv: another account reads /proc/<pid>/cmdline). */
export function actionEnv(n: Notification): Record<string, string> {
  const env: Record<string, string> = {};
  (n.actions ?? []).forEach((a, i) => {
    env[`HAND_ACTION_${i + 1}_LABEL`] = a.label;
    env[`HAND_ACTION_${i + 1}_URL`] = a.url;
    env[`HAND_ACTION_${i + 1}_METHOD`] = a.method;
  });
  if (n.actions?.length) env.HAND_ACTIONS = String(n.actions.length);
  if (n.view) env.HAND_VIEW_URL = n.view;
  return env;
}

export type SendResult = { ok: true } | { ok: false; error: string };

const PRIORITY: Record<string, string> = { blocked: 'high', gate: 'default', parked: 'high', crashed: 'urgent', test: 'low' };
const TAGS: Record<string, string> = { blocked: 'warning', gate: 'lock', parked: 'question', crashed: 'rotating_light', test: 'test_tube' };

/** HTTP header values must be Latin-1; anything else becomes '?', never a thrown send. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);

export function titleOf(n: Notification): string {
  return `${n.worker}${n.project ? ` (${n.project})` : ''}: ${n.condition}`;
}

export function bodyOf(n: Notification): string {
  return [n.reason, n.question ? `Q: ${n.question}` : n.lastLine ? `Screen: ${n.lastLine}` : '', `→ ${n.command}`].filter(Boolean).join('\n');
}

function scrub(text: string, t: Target): string {
  if (t.kind === 'command') return text;
  let out = text.split(t.url).join(`<${t.id}>`);
  try {
    const u = new URL(t.url);
    if (u.search) out = out.split(u.search).join('?…');
    if (u.password) out = out.split(u.password).join('…');
  } catch {
    /* an unparseable URL was refused when the target was added */
  }
  return out;
}

async function post(url: string, init: { headers: Record<string, string>; body: string }, timeoutMs: number): Promise<SendResult> {
  try {
    const res = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? { ok: true } : { ok: false, error: `HTTP ${res.status}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { ok: false, error: why };
  }
}

function runCommand(argv: string[], stdin: string, timeoutMs: number, env: Record<string, string> = {}): Promise<SendResult> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-300);
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish({ ok: false, error: `command did not finish within ${timeoutMs} ms` });
    }, timeoutMs);
    child.on('error', (err) => finish({ ok: false, error: err.message }));
    child.on('close', (code) => finish(code === 0 ? { ok: true } : { ok: false, error: `exit ${code}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}` }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

export async function sendTo(t: Target, n: Notification, timeoutMs = 5000): Promise<SendResult> {
  let r: SendResult;
  if (t.kind === 'ntfy') {
    const actions = ntfyActions(n);
    r = await post(t.url, {
      headers: {
        Title: headerSafe(titleOf(n)), Priority: PRIORITY[n.condition] ?? 'default', Tags: TAGS[n.condition] ?? 'robot', 'Content-Type': 'text/plain; charset=utf-8',
        // Tapping the notification opens the worker's page (a one-time sign-in); the buttons answer.
        ...(n.view && { Click: n.view }), ...(actions && { Actions: actions }),
      },
      body: bodyOf(n),
    }, timeoutMs);
  } else if (t.kind === 'webhook') {
    r = await post(t.url, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: titleOf(n), ...n }) }, timeoutMs);
  } else {
    r = await runCommand(t.argv, JSON.stringify({ title: titleOf(n), ...n }), timeoutMs * 2, actionEnv(n));
  }
  return r.ok ? r : { ok: false, error: scrub(r.error, t) };
}
