/**
 * Each worker's agent session, known and proved (issue 41 item 1), and what it has spent
 * (item 4). When a worker's first turn runs, and whenever its agent's hook names a session, the
 * keeper looks in the worker's own agent config directory (`<state>/agents/<id>/<agent>` in
 * kingshand's sandbox; the launch environment's otherwise) for the session file that ran in the
 * worker's worktree, proves it (io/agent/sessions/prove.ts) and records it for the worker's
 * current launch. A hook's session id is the worker's word: it only says which file to prove.
 *
 * Usage is read from the proved file, incrementally (io/agent/sessions/usage-tally.ts), at the
 * moments a turn can have ended (a settle, a hook) and on a slow sweep, and written to the usage
 * ledger as absolute numbers per model and day — never from a screen, never from a credential.
 */
import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import { agentsDirOf } from '../../io/sandbox/worker-sandbox.ts';
import { findSession, proveSession } from '../../io/agent/sessions/prove.ts';
import type { SessionFormat, SessionProof } from '../../io/agent/sessions/types.ts';
import { lstat } from 'node:fs/promises';
import { newTally, readNewUsage, releaseTally, tallyRows, type UsageTally } from '../../io/agent/sessions/usage-tally.ts';
import type { HookNote } from '../../contract/hook-note.ts';
import type { FleetStore, WorkerIntent } from '../../persistence/types.ts';
import type { SessionRow, SessionStore } from '../../persistence/work/session-store.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';

/** How often every live worker's session is read even when nothing said a turn ended. */
export const USAGE_SWEEP_MS = 60_000;
/** What was read is written to the ledger in one transaction this often (status lags the read by at most this). */
export const LEDGER_FLUSH_MS = 1000;

export interface SessionKeeperDeps {
  store: FleetStore;
  fleet: Pick<FleetHostApi, 'views' | 'view' | 'subscribe'>;
  sessions: SessionStore;
  stateDir: string;
  /** The environment the worker's agent was launched with (its config directory when not sandboxed). */
  launchEnvOf(id: string): Record<string, string | undefined>;
  log?: (obj: Record<string, unknown>, msg: string) => void;
  now?: () => number;
  /** Tests and the bench: a sweep interval of their own (0: no sweep). */
  sweepMs?: number;
  /** Tests: the ledger's flush interval (default LEDGER_FLUSH_MS). */
  flushMs?: number;
}

interface Kept {
  /** The launch (intent.createdAt) the work below belongs to. */
  launchedAt: number;
  tally: UsageTally | null;
  locating: Promise<void> | null;
  reading: Promise<void> | null;
  /** A read was asked for while one ran: it runs again after. */
  again: boolean;
  /** The store's session row for this worker, as last read or recorded (undefined: not asked yet this launch). */
  row?: SessionRow | null;
  /** Looks that found no session yet this launch (the agent writes its file at its first turn): retried, bounded. */
  misses: number;
  retry: NodeJS.Timeout | null;
}

/** Looks again after 1, 2, 4 … s while the session file is not there yet, at most this many times a launch. */
const MAX_MISSES = 8;

export type SessionKeeper = ReturnType<typeof createSessionKeeper>;

export function createSessionKeeper(deps: SessionKeeperDeps) {
  const now = deps.now ?? Date.now;
  const kept = new Map<string, Kept>();
  let closed = false;
  const log = (obj: Record<string, unknown>, msg: string) => deps.log?.(obj, msg);

  /** Where the worker's agent keeps its sessions: its own directory, else its launch environment's. */
  function configDirOf(intent: WorkerIntent, launchEnv?: Record<string, string | undefined>): string | null {
    const home = agentProfile(intent.agent).sandboxHome;
    if (!home) return null;
    const own = join(agentsDirOf(deps.stateDir, intent.id), intent.agent);
    try {
      if (lstatSync(own).isDirectory()) return own;
    } catch {
      // not sandboxed
    }
    return home.personsDir(launchEnv ?? deps.launchEnvOf(intent.id));
  }

  function within(file: string, dir: string): boolean {
    const rel = relative(dir, file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  }

  const local = (intent: WorkerIntent) => !intent.host || intent.host === 'local';

  function keptOf(intent: WorkerIntent): Kept {
    let k = kept.get(intent.id);
    if (!k || k.launchedAt !== intent.createdAt) {
      if (k?.retry) clearTimeout(k.retry);
      if (k?.tally) releaseTally(k.tally);
      k = { launchedAt: intent.createdAt, tally: null, locating: null, reading: null, again: false, misses: 0, retry: null };
      kept.set(intent.id, k);
    }
    return k;
  }

  /** The session recorded for the worker's current launch (a resumed launch's is the one it resumed), or null. */
  function current(intent: WorkerIntent): SessionRow | null {
    // Asked of the store once a launch: only this keeper records sessions (record() below keeps it).
    const k = keptOf(intent);
    if (k.row === undefined) k.row = deps.sessions.sessionOf(intent.id);
    const row = k.row;
    if (!row || row.agent !== intent.agent) return null;
    return row.launchedAt === intent.createdAt || row.sessionId === intent.resumeSession ? row : null;
  }

  /** Looks for the worker's session and records it; `hint`: the id a hook reported (proved by its file). */
  function locate(intent: WorkerIntent, hint?: string): Promise<void> {
    const k = keptOf(intent);
    if (k.locating) return k.locating;
    const format = agentProfile(intent.agent).sessions?.format;
    const dir = configDirOf(intent);
    if (!format || !dir || !local(intent)) return Promise.resolve();
    k.locating = (async () => {
      const want = hint ?? intent.resumeSession;
      const found = await findSession(format, dir, intent.worktree, want !== undefined ? { hint: want } : { since: intent.createdAt - 1000 });
      if (!found) return;
      const was = current(intent);
      if (was?.sessionId === found.sessionId && was.file === found.file) return;
      const row = { worker: intent.id, agent: intent.agent, sessionId: found.sessionId, file: found.file, launchedAt: intent.createdAt };
      deps.sessions.record(row);
      k.row = { ...row, recordedAt: now() };
      log({ worker: intent.id, session: found.sessionId, file: found.file, was: was?.sessionId ?? null }, 'agent session recorded');
      if (k.tally) releaseTally(k.tally);
      k.tally = null;
    })()
      .catch((err: unknown) => log({ worker: intent.id, err: String(err) }, 'looking for the agent session failed'))
      .finally(() => {
        k.locating = null;
      });
    return k.locating;
  }

  /** Reads what the worker's session appended since the last read, into the ledger. */
  function readUsage(intent: WorkerIntent): Promise<void> {
    const k = keptOf(intent);
    if (k.reading) {
      k.again = true;
      return k.reading;
    }
    const row = current(intent);
    const format = agentProfile(intent.agent).sessions?.format;
    if (!row || !format) return Promise.resolve();
    if (!k.tally || k.tally.file !== row.file) {
      if (k.tally) releaseTally(k.tally);
      k.tally = newTally(format, row.file);
    }
    const tally = k.tally;
    k.reading = (async () => {
      for (let chunks = 0; chunks < 64; chunks++) {
        const r = await readNewUsage(tally);
        if (r.kind !== 'read') {
          if (r.kind === 'refused') log({ worker: intent.id, file: row.file, why: r.reason }, 'session record not read for usage');
          return;
        }
        if (r.changed) markDirty({ worker: intent.id, project: intent.project, agent: intent.agent, file: row.file }, tally);
        if (!r.more) return;
      }
    })()
      .catch((err: unknown) => log({ worker: intent.id, err: String(err) }, 'reading session usage failed'))
      .finally(() => {
        k.reading = null;
        if (k.again) {
          k.again = false;
          void readUsage(intent);
        }
      });
    return k.reading;
  }

  /** A turn may have ended or begun: find the session if it is not known yet, then read its usage. */
  async function touch(intent: WorkerIntent, hint?: string): Promise<void> {
    const row = current(intent);
    if (!row || (hint !== undefined && hint !== row.sessionId)) await locate(intent, hint);
    if (!current(intent)) return lookAgainLater(intent);
    await readUsage(intent);
  }

  /** The first turn may not have written its file yet: a bounded number of later looks, while the worker is there. */
  function lookAgainLater(intent: WorkerIntent): void {
    const k = keptOf(intent);
    if (k.retry || k.misses >= MAX_MISSES || closed || !agentProfile(intent.agent).sessions || !local(intent)) return;
    const v = deps.fleet.view(intent.id);
    if (!v || v.condition === 'gone' || v.condition === 'making' || v.condition === 'gate') return;
    k.retry = setTimeout(() => {
      k.retry = null;
      const now = intentOf(intent.id);
      if (now && now.createdAt === intent.createdAt) void touch(now);
    }, 1000 * 2 ** k.misses++);
    k.retry.unref?.();
  }

  const intentOf = (id: string): WorkerIntent | null => deps.store.getWorker(id);

  /** Tallies read since the last flush, by file: written together (one commit for the fleet, not one a read). */
  const dirty = new Map<string, { who: { worker: string; project: string; agent: string; file: string }; tally: UsageTally }>();
  let flushTimer: NodeJS.Timeout | null = null;
  function markDirty(who: { worker: string; project: string; agent: string; file: string }, tally: UsageTally): void {
    dirty.set(who.file, { who, tally });
    if (!flushTimer && !closed) {
      flushTimer = setTimeout(flush, deps.flushMs ?? LEDGER_FLUSH_MS);
      flushTimer.unref?.();
    }
  }
  function flush(): void {
    flushTimer = null;
    if (dirty.size === 0) return;
    const batch = [...dirty.values()].map(({ who, tally }) => ({ who, rows: tallyRows(tally) }));
    dirty.clear();
    try {
      deps.sessions.writeUsageMany(batch);
    } catch (err) {
      // A locked or full database: the tallies stay in memory and are written with the next read.
      log({ err: String(err), files: batch.length }, 'usage ledger not written');
    }
  }

  /**
   * A recorded session's proof, read again only when its file changed (size, time, identity): the
   * page and status ask for a lost worker's on every render.
   */
  const proofs = new Map<string, { key: string; proof: SessionProof }>();
  async function provedOnce(format: SessionFormat, row: SessionRow, worktree: string): Promise<SessionProof> {
    const st = await lstat(row.file).catch(() => null);
    const key = st ? `${row.sessionId}\u0000${worktree}\u0000${st.ino}\u0000${st.size}\u0000${st.mtimeMs}` : null;
    const was = proofs.get(row.file);
    if (key && was?.key === key) return was.proof;
    const proof = await proveSession(format, row.file, worktree, row.sessionId);
    if (key) proofs.set(row.file, { key, proof });
    return proof;
  }

  /** The conditions at which a turn has begun or ended: the moments a session file has news. */
  const TURN_EDGES = new Set(['busy', 'settled', 'blocked', 'gone', 'stalled']);
  /** Each worker's condition as last seen: only a change costs anything (a streaming worker publishes many views a second). */
  const lastCondition = new Map<string, string>();
  const unsubscribe = deps.fleet.subscribe((v: WorkerViewLike) => {
    // A turn beginning (the working mark) is an edge too: the agent has written its prompt by then.
    const edge = v.marks.includes('working') ? `${v.condition}+working` : v.condition;
    if (lastCondition.get(v.id) === edge) return;
    lastCondition.set(v.id, edge);
    if (!TURN_EDGES.has(v.condition)) return;
    const intent = intentOf(v.id);
    if (intent) void touch(intent);
  });

  const sweepMs = deps.sweepMs ?? USAGE_SWEEP_MS;
  const sweep = sweepMs > 0 ? setInterval(() => void sweepOnce(), sweepMs) : null;
  sweep?.unref?.();

  async function sweepOnce(): Promise<void> {
    for (const v of deps.fleet.views()) {
      if (v.condition === 'gone' && kept.get(v.id)?.tally) continue;
      const intent = intentOf(v.id);
      if (intent) await touch(intent);
    }
  }

  return {
    /** A hook note reached the daemon: the session it names is proved and recorded, its usage read. */
    noteHook(note: HookNote): void {
      const intent = intentOf(note.id);
      if (intent) void touch(intent, note.sessionId);
    },
    /**
     * The worker's session, proved again now for a resume: the one recorded for its current launch
     * (its file re-read: still there, whole, its worktree's), else the newest one of its worktree
     * in its own directory. Never the file a hook or the worker names.
     */
    async proveForResume(intent: WorkerIntent, launchEnv?: Record<string, string | undefined>, o: { fresh?: boolean } = {}): Promise<SessionProof> {
      const profile = agentProfile(intent.agent);
      if (!profile.sessions) return { ok: false, why: 'cannot-resume', detail: `${profile.label} keeps no session kingshand can resume (it is not a conversation agent)` };
      if (!local(intent)) return { ok: false, why: 'cannot-resume', detail: `worker ${intent.id} runs on ${intent.host}: its session record is on that host, and resume is for workers on this machine` };
      const dir = configDirOf(intent, launchEnv);
      const row = current(intent);
      // None recorded (no hook, no turn seen): the newest session of its worktree written during this launch.
      const proof = row
        ? o.fresh
          ? await proveSession(profile.sessions.format, row.file, intent.worktree, row.sessionId)
          : await provedOnce(profile.sessions.format, row, intent.worktree)
        : ((dir ? await findSession(profile.sessions.format, dir, intent.worktree, { since: intent.createdAt - 1000 }) : null) ??
          ({ ok: false, why: 'missing', detail: `no ${profile.label} session of worker ${intent.id} was recorded, and none that ran in ${intent.worktree} is in ${dir ?? 'its config directory'}` } as const));
      // The resumed agent looks for the session in its config directory: one the session is not in would start it empty.
      if (proof.ok && dir && !within(proof.file, dir)) {
        return { ok: false, why: 'missing', detail: `its ${profile.label} session is kept in ${proof.file}, but the agent launched now would look in ${dir} (its config directory in this environment)` };
      }
      return proof;
    },
    /** The session recorded for the worker's current launch (status shows it), or null. */
    sessionOf(intent: WorkerIntent): SessionRow | null {
      return current(intent);
    },
    /** Looks and reads now (tests, and the bench's read of 200 workers). */
    async refresh(id: string): Promise<void> {
      const intent = intentOf(id);
      if (intent) await touch(intent);
    },
    /** Writes what was read to the ledger now (the bench, and shutdown). */
    flush,
    sweepOnce,
    close(): void {
      closed = true;
      unsubscribe();
      if (sweep) clearInterval(sweep);
      if (flushTimer) clearTimeout(flushTimer);
      flush();
      for (const k of kept.values()) {
        if (k.retry) clearTimeout(k.retry);
        if (k.tally) releaseTally(k.tally);
      }
    },
  };
}
