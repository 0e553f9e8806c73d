/**
 * Request handlers: one function per method. They validate the wire params, call the
 * fleet host or the store, and return plain JSON.
 */
import { basename, resolve } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { RefusedError, UsageError } from '../../io/errors.ts';
import { KEY_NAMES, type Key } from '../../io/terminal/types.ts';
import { parseKey } from '../../io/terminal/keys.ts';
import type { FleetStore, Posture, ProjectRecord } from '../../persistence/types.ts';
import type { FleetHostApi, WorkerViewLike } from './fleet-api.ts';
import type { Handler } from './server.ts';
import { worktreeMissing } from './worktree-presence.ts';
import { waitForWorker, conditionOf, type Until } from './wait.ts';
import { dispatchWorker, type DispatchDeps } from './dispatch.ts';

export interface HandlerDeps extends DispatchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  startedAt: number;
  home: string;
  socket: string;
  requestShutdown(): void;
}

const POSTURES: Posture[] = ['local-only', 'direct-PR', 'no-mistakes', 'no-mistakes-prod-only'];
const UNTILS: Until[] = ['settled', 'blocked', 'stalled', 'exited', 'any'];

function str(params: Record<string, unknown>, key: string, required = true): string {
  const v = params[key];
  if (typeof v === 'string' && v.length > 0) return v;
  if (!required && (v === undefined || v === null)) return '';
  throw new UsageError('bad-request', `missing or invalid ${key}`, { key });
}

function num(params: Record<string, unknown>, key: string, fallback: number): number {
  const v = params[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  throw new UsageError('bad-request', `invalid ${key}: ${JSON.stringify(v)}`, { key });
}

/** One key as a person writes it; anything else is bad usage that points at `hand send`. */
export function parseOneKey(raw: string): Key {
  try {
    return parseKey(raw);
  } catch {
    throw new UsageError(
      'bad-key',
      `${JSON.stringify(raw)} is not one key. Send exactly one key per call: ${KEY_NAMES.join(', ')}, or one printable character (use hand send for text).`,
      { key: raw },
    );
  }
}

/** The caller's environment, as sent by the CLI: string values only. */
function envParam(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ...(process.env as Record<string, string>) };
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

/** The first view of `id` published after now that satisfies `accept`, or the latest one at the bound. */
function nextView(fleet: FleetHostApi, id: string, accept: (v: WorkerViewLike) => boolean, boundMs: number, fallback?: WorkerViewLike): Promise<WorkerViewLike> {
  return new Promise((resolve) => {
    let latest = fallback ?? fleet.view(id)!;
    const done = (v: WorkerViewLike) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(v);
    };
    const unsubscribe = fleet.subscribe((v) => {
      if (v.id !== id) return;
      latest = v;
      if (accept(v)) done(v);
    });
    const timer = setTimeout(() => done(latest), boundMs);
  });
}

function findWorker(fleet: FleetHostApi, id: string): WorkerViewLike {
  const view = fleet.view(id);
  if (!view) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}. \`hand status\` lists the workers.`, { id });
  return view;
}

/** The status row promised by `hand status` (a fixed, documented field set). */
export function statusRow(v: WorkerViewLike) {
  return {
    id: v.id,
    project: v.project,
    stage: v.stage,
    state: v.state,
    awaitingInput: v.awaitingInput,
    blockedReason: v.blockedReason,
    promptBox: v.promptBox,
    readable: v.readable,
    live: v.live,
    backend: v.backend,
    agent: v.agent,
    reportPath: v.reportPath,
    reportExists: v.reportExists,
    lastActivity: v.lastActivity,
    updatedAt: new Date(v.updatedAt).toISOString(),
    stallAt: v.stallAt === null ? null : new Date(v.stallAt).toISOString(),
    exitCode: v.exitCode,
    waitingOn: v.waitingOn ?? null,
    // What the worker's gate waits for ('brief approval' | 'landing approval'), from its machine state.
    gate: v.gate ?? null,
    // The latest rejection at either gate, with the person's reason.
    rejection: v.rejection ? `${v.rejection.gate}: ${v.rejection.reason}` : null,
    // The worktree was deleted outside kingshand (actors/daemon/worktree-presence.ts).
    worktreeMissing: worktreeMissing(v),
  };
}

export function makeHandlers(deps: HandlerDeps): Record<string, Handler> {
  const { fleet, store } = deps;
  return {
    async ping() {
      return { pid: process.pid, home: deps.home, socket: deps.socket, uptimeMs: Date.now() - deps.startedAt, workers: fleet.views().length };
    },
    async shutdown() {
      setImmediate(() => deps.requestShutdown());
      return { stopping: true, pid: process.pid };
    },
    async annex(params) {
      const raw = str(params, 'repo');
      if (!existsSync(raw)) throw new UsageError('missing-repo', `${resolve(raw)} does not exist. Pass the path of a git work tree.`, { repo: raw });
      const repo = await deps.repoTopLevel(realpathSync(raw));
      const posture = (str(params, 'posture', false) || 'local-only') as Posture;
      if (!POSTURES.includes(posture)) {
        throw new UsageError('bad-posture', `posture ${JSON.stringify(posture)} is unknown. Use one of: ${POSTURES.join(', ')}.`, { posture });
      }
      const name = str(params, 'name', false) || basename(repo);
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
        throw new UsageError('bad-project-name', `project name ${JSON.stringify(name)} is not usable: letters, digits, '.', '-', '_' (pass --name).`, { name });
      }
      const clash = store.listProjects().find((p) => p.name === name && p.repo !== repo);
      if (clash) throw new RefusedError('project-name-taken', `project name ${name} already belongs to ${clash.repo}. Pass --name <other>.`, { name });
      const previous = store.listProjects().find((p) => p.repo === repo);
      const record: ProjectRecord = { name, repo, posture, yolo: params.yolo === true, registeredAt: previous?.registeredAt ?? Date.now() };
      if (previous && previous.name !== name) {
        throw new RefusedError('repo-registered', `${repo} is already registered as ${previous.name}.`, { repo });
      }
      store.upsertProject(record);
      return { ...record, updated: Boolean(previous) };
    },
    async projects() {
      return store.listProjects();
    },
    async dispatch(params) {
      const view = await dispatchWorker(
        {
          id: str(params, 'id'),
          repo: str(params, 'repo'),
          brief: str(params, 'brief'),
          readPaths: Array.isArray(params.readPaths) ? (params.readPaths as string[]) : [],
          agent: str(params, 'agent', false) || 'claude',
          backend: str(params, 'backend', false) || 'tmux',
          stallMs: num(params, 'stallMs', 20 * 60_000),
          env: envParam(params.env),
          envAdd: params.envAdd ? envParam(params.envAdd) : undefined,
        },
        deps,
      );
      return {
        id: view.id, repo: deps.store.getWorker(view.id)?.repo ?? '', worktree: view.worktree, branch: view.branch, base: view.base,
        backend: view.backend, agent: view.agent, briefPath: view.briefPath, reportPath: view.reportPath, stage: view.stage,
      };
    },
    async status(params) {
      const id = str(params, 'id', false);
      if (id) return [statusRow(findWorker(fleet, id))];
      return fleet.views().map((v) => statusRow(v));
    },
    async wait(params, ctx) {
      const id = str(params, 'id');
      findWorker(fleet, id);
      const until = (str(params, 'until', false) || 'any') as Until;
      if (!UNTILS.includes(until)) throw new UsageError('bad-until', `--until ${until} is unknown. Use one of: ${UNTILS.join(', ')}.`, { until });
      const timeoutMs = num(params, 'timeoutMs', 30 * 60_000);
      let lastSent = 0;
      return waitForWorker(fleet, id, until, timeoutMs, {
        signal: ctx.signal,
        onChange: (v) => {
          const now = Date.now();
          if (now - lastSent < 200) return;
          lastSent = now;
          ctx.progress({ stage: v.stage, state: v.state, lastActivity: v.lastActivity, readable: v.readable });
        },
      });
    },
    /** Streams every worker view change as progress until the timeout or until the client leaves. */
    async watch(params, ctx) {
      const timeoutMs = num(params, 'timeoutMs', 60_000);
      for (const v of fleet.views()) ctx.progress(statusRow(v));
      await new Promise<void>((resolve) => {
        const unsubscribe = fleet.subscribe((v) => ctx.progress(statusRow(v)));
        const end = () => {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        };
        const timer = setTimeout(end, timeoutMs);
        ctx.signal.addEventListener('abort', end);
      });
      return fleet.views().map((v) => statusRow(v));
    },
    async read(params) {
      const id = str(params, 'id');
      const view = findWorker(fleet, id);
      const scrollback = params.scrollback === undefined ? undefined : num(params, 'scrollback', 0);
      const res = await fleet.readScreen(id, scrollback ? { scrollback } : {});
      if (!res.ok) throw new RefusedError('read-failed', `could not read the screen of ${id}: ${res.error}`, { id });
      return { id, text: res.text, source: scrollback ? 'scrollback' : 'visible', stage: view.stage, state: view.state };
    },
    async send(params) {
      const id = str(params, 'id');
      findWorker(fleet, id);
      const text = str(params, 'text');
      const wasSettled = conditionOf(fleet.view(id)!) === 'settled';
      const sent = await fleet.send(id, text, { allowNonEmptyBox: params.allowNonEmptyBox === true });
      // A `hand wait` right after `hand send` must not wake on the settled state from before the
      // prompt: answer once the worker shows it took the prompt (bounded; the screen decides).
      const view = wasSettled ? await nextView(fleet, id, (v) => conditionOf(v) !== 'settled', 3000) : sent;
      return { id, sent: true, stage: view.stage, state: view.state, confirmed: !wasSettled || conditionOf(view) !== 'settled' };
    },
    async keys(params) {
      const id = str(params, 'id');
      findWorker(fleet, id);
      const key = parseOneKey(str(params, 'key'));
      const pressed = await fleet.key(id, key, { allowNonEmptyBox: params.allowNonEmptyBox === true });
      // Answer with the screen the key produced, so the next command never acts on the one before it.
      const view = await nextView(fleet, id, () => true, 1500, pressed);
      return { id, key: typeof key === 'string' ? key : key.char, stage: view.stage, state: view.state, awaitingInput: view.awaitingInput, promptBox: view.promptBox };
    },
    async stop(params) {
      const id = str(params, 'id');
      findWorker(fleet, id);
      const res = await fleet.stop(id, { timeoutMs: num(params, 'timeoutMs', 30_000) });
      return { id, stage: res.view.stage, exitCode: res.exitCode, paneReusable: res.paneReusable, condition: conditionOf(res.view) };
    },
  };
}
