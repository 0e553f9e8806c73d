/**
 * The real side effects behind WorkerPorts: git worktrees, Claude Code setup, launch specs and
 * report checks. The caller's environment (API keys, proxies) is held in memory only, per
 * worker, for the launch: it is never persisted or logged.
 */
import { dirname, join } from 'node:path';
import { createWorktree, gitCommonDir, installBaseGuard, landingTarget, repoFacts, type RepoFacts, type WorktreeLane } from '../git/index.ts';
import type { PermissionPosture } from '../agent/claude/index.ts';
import { agentProfile } from '../agent/profiles/index.ts';
import { launchSpec } from '../agent/launch.ts';
import { HOOK_HOME_ENV, HOOK_WORKER_ENV, WITNESS_OFF_ENV } from '../agent/claude/hooks.ts';
import { HOOK_CAP_ENV, hookCapability } from '../agent/claude/hook-capability.ts';
import { guardedSendKey, guardedSendText } from '../terminal/guarded-send.ts';
import { clearSubmissionMark, readFirstPromptMark, readSubmissionMark, writeSubmissionMark, type SubmissionKind, type SubmissionMark } from '../brief/submission-mark.ts';
import type { WorkerPorts } from './worker-ports.ts';
import type { WorkerIntent } from '../../contract/methods/fleet.ts';
import { readDelivery } from '../brief/delivery-record.ts';
import { KINGSHAND_ROOT } from '../root.ts';
import { prepareSandbox, sandboxEnv, workerSandbox, type WorkerSandboxPlace } from '../sandbox/worker-sandbox.ts';
import { gitPlacesOf } from '../sandbox/git-places.ts';
import { ensureLooseBaseRef } from '../git/loose-base-ref.ts';
import { packLooseObjects } from '../git/pack-loose-objects.ts';
import type { SandboxAvailability } from '../sandbox/availability.ts';
import { probeUntrustedFile, readUntrustedFile, RefusedFileError } from '../fs/untrusted-file.ts';
import { REPORT_READ_CAP, workerDirsOf } from '../brief/worker-layout.ts';
import { parseWaitingOn } from '../brief/report-question.ts';

export interface RealPorts extends WorkerPorts {
  /** Remember the environment of the dispatch call that created this worker. */
  rememberCallerEnv(id: string, env: Record<string, string>, add?: Record<string, string>): void;
  /** That environment (the daemon's own when none was kept) and its `--env` additions: a far host's launch is built from them. */
  callerEnvOf(id: string): { env: Record<string, string>; add?: Record<string, string> };
  /**
   * The base guard and the recorded base tip for a worker's repository (where git runs now: onHost
   * for a far one); `commonDir`: its common git directory when already asked (else asked here).
   */
  guardBase(intent: { repo: string; base: string }, commonDir?: string): Promise<void>;
  /**
   * Runs `during` (the dispatch's wait for its worker's worktree, seed and pane) with what the
   * dispatch asked git of the worker's repository handed to that worker's preparation, so the
   * preparation does not ask it again. Only while `during` runs: a preparation after it (an
   * approval at the brief gate, a restore, a relaunch) asks git afresh, since a repository can
   * move or go in between. Facts of another repository than the worker's are never used.
   */
  withRepoFacts<T>(id: string, facts: RepoFacts, during: () => Promise<T>): Promise<T>;
  /** The lane one repository's worktree metadata steps take one at a time (`key`: its path, or host and path for a far one). */
  worktreeLane(key: string): WorktreeLane;
}

export { claudeConfigDirOf } from '../agent/claude/claude-json-plan.ts';

export interface RealPortsOptions {
  fallbackEnv: Record<string, string | undefined>;
  /** The permission posture of a worker's project (default 'off', the seed's posture). */
  postureOf?: (intent: { project: string }) => PermissionPosture;
  /** kingshand's state directory: its database and standing files go on the worker's deny list. */
  stateDir?: string;
  /** Records the base's tip if none is (the daemon's base watch, daemon/fleet/base-watch.ts): a dispatch's first record of it. */
  recordBase?: (repo: string, base: string) => Promise<unknown>;
  /** Told what the base guard did (installed, kept, left a foreign hook alone). */
  onBaseGuard?: (repo: string, outcome: Awaited<ReturnType<typeof installBaseGuard>>) => void;
  log?: (obj: Record<string, unknown>) => void;
  /**
   * Whether kingshand's worker sandbox can be built here (io/sandbox/availability.ts), asked at
   * each launch; absent or not ok: workers run without it (posture off is then refused at dispatch).
   */
  sandbox?: () => SandboxAvailability;
}

/** How long a first prompt waits, typed, for its submission to be recordable (a full disk) before a person is asked. */
export const FIRST_PROMPT_MARK_WAIT_MS = 5 * 60_000;
const MARK_RETRY_MS = 250;

/**
 * The mark is written before the Enter or the Enter is not sent: on a full disk (or a state
 * directory that refuses writes) the typed prompt waits, retried every MARK_RETRY_MS, told once;
 * past FIRST_PROMPT_MARK_WAIT_MS the send fails and the worker is blocked with the reason.
 */
async function markWhenWritable(dir: string, kind: SubmissionKind, mark: SubmissionMark, told: (err: unknown) => void): Promise<void> {
  const deadline = Date.now() + FIRST_PROMPT_MARK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      writeSubmissionMark(dir, kind, mark);
      return;
    } catch (err) {
      if (attempt === 0) told(err);
      if (Date.now() >= deadline) {
        const what = kind === 'decision' ? `the answer to decision ${mark.key ?? ''}` : 'the first prompt';
        throw new Error(`${what} is typed but not sent: its submission could not be recorded in ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)}). Free space there, then press Enter for it: hand keys <id> enter`);
      }
      await new Promise((r) => setTimeout(r, MARK_RETRY_MS));
    }
  }
}

export function createRealPorts(opts: RealPortsOptions): RealPorts {
  const postureOf = (intent: { project: string }): PermissionPosture => opts.postureOf?.(intent) ?? 'off';
  const callerEnvs = new Map<string, Record<string, string>>();
  /**
   * Worktree creation is serialised per repository: concurrent `git worktree add -b` in one
   * repository failed here with "failed to read .git/worktrees/<id>/commondir" (git's own
   * metadata race), so a fleet dispatched in parallel lost workers.
   */
  const repoQueues = new Map<string, Promise<unknown>>();
  const envAdds = new Map<string, Record<string, string>>();
  const envOf = (id: string) => callerEnvs.get(id) ?? (opts.fallbackEnv as Record<string, string>);
  /** What a dispatch still waiting on its worker asked git of the worker's repository (withRepoFacts). */
  const dispatchFacts = new Map<string, RepoFacts>();
  const handedFacts = (intent: WorkerIntent): RepoFacts | null => {
    const facts = dispatchFacts.get(intent.id);
    return facts && facts.top === intent.repo ? facts : null;
  };
  const worktreeLane = (key: string): WorktreeLane => async (steps) => {
    const previous = repoQueues.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(steps);
    repoQueues.set(key, mine);
    try {
      return await mine;
    } finally {
      if (repoQueues.get(key) === mine) repoQueues.delete(key);
    }
  };
  /**
   * Before the worker's first command: its git cannot move the base (the hook), and a move by
   * other means is noticed against the tip recorded here (issue 24 item 3). Where git runs: a far
   * worker's ports call it on its host (daemon/hosts/far-ports.ts).
   */
  const guardBase = async (intent: { repo: string; base: string }, commonDir?: string): Promise<void> => {
    opts.onBaseGuard?.(intent.repo, await installBaseGuard(intent.repo, landingTarget(intent.base)));
    // A file the worker's sandbox pins read-only (a base that is only in packed-refs has none).
    if (opts.sandbox?.().ok) await ensureLooseBaseRef(intent.repo, landingTarget(intent.base), commonDir);
    await opts.recordBase?.(intent.repo, intent.base);
  };
  /**
   * Where a local worker's sandbox puts what (io/sandbox/worker-sandbox.ts), from what the daemon
   * knows of it — its intent and the registered repository — or null when it runs without one.
   */
  const sandboxPlaceOf = (intent: WorkerIntent): { place: WorkerSandboxPlace; bwrap: string } | null => {
    const sb = opts.sandbox?.();
    if (!sb?.ok || !opts.stateDir) return null;
    const git = gitPlacesOf(intent.repo, intent.worktree);
    const base = landingTarget(intent.base);
    return {
      bwrap: sb.bwrap,
      place: {
        id: intent.id,
        agent: intent.agent,
        worktree: intent.worktree,
        // The daemon's files read-only, the report's directory writable (io/brief/worker-layout.ts).
        ...workerDirsOf(intent),
        stateDir: opts.stateDir,
        repo: intent.repo,
        gitCommonDir: git.commonDir,
        worktreeGitDir: git.worktreeGitDir,
        pinnedRefs: git.commonDir ? [join(git.commonDir, 'refs', 'heads', ...base.split('/'))] : [],
        ...(agentProfile(intent.agent).sandboxHome ? { agentHome: agentProfile(intent.agent).sandboxHome! } : {}),
        needs: [KINGSHAND_ROOT, dirname(process.execPath)],
        // A read-only dispatch (counsel): its worktree and git read-only, only its report writable.
        ...(readDelivery(intent.briefPath)?.readOnly === true ? { readOnly: true } : {}),
      },
    };
  };
  /** The sandbox place with the files this launch's environment names (its profile says which). */
  const withEnvPaths = (s: { place: WorkerSandboxPlace; bwrap: string }, agent: string, env: Record<string, string>) => {
    const paths = agentProfile(agent).sandboxPaths?.(env);
    return paths ? { ...s, place: { ...s.place, envPaths: paths } } : s;
  };
  return {
    worktreeLane,
    rememberCallerEnv(id, env, add) {
      callerEnvs.set(id, env);
      if (add) envAdds.set(id, add);
    },
    callerEnvOf: (id) => ({ env: envOf(id), ...(envAdds.has(id) && { add: envAdds.get(id) }) }),
    async withRepoFacts(id, facts, during) {
      dispatchFacts.set(id, facts);
      try {
        return await during();
      } finally {
        // A later dispatch of the same id may have handed its own meanwhile: that one stays its.
        if (dispatchFacts.get(id) === facts) dispatchFacts.delete(id);
      }
    },
    async prepareWorktree(intent) {
      // The repository's top level and git directory, asked once for the whole preparation (or
      // handed by the dispatch that asked them a moment ago), then only read.
      const facts = handedFacts(intent) ?? (await repoFacts(intent.repo));
      // Only the worktree metadata steps wait their turn (the probes before them run at once).
      await createWorktree({ repo: intent.repo, id: intent.id, base: intent.base, facts }, worktreeLane(intent.repo));
      await guardBase(intent, facts.commonDir ?? undefined);
    },
    guardBase,
    async seedAgent(intent) {
      // The project's permission posture decides the mode; every posture carries the deny list
      // (secrets, kingshand's own state) and the fence on writes outside the worktree and the
      // brief directory, where the agent has them (its profile, io/agent/profiles/).
      const callerEnv = { ...envOf(intent.id), ...envAdds.get(intent.id) };
      // In kingshand's sandbox the agent reads its config from a directory of its own: the seed
      // writes trust there, where the agent will look, and never into the person's files.
      const sandboxed = sandboxPlaceOf(intent);
      // The sandbox (posture off) lets a commit write the repository's git directory, nothing else of it.
      const gitDir = handedFacts(intent)?.commonDir ?? (await gitCommonDir(intent.repo)) ?? undefined;
      if (sandboxed) {
        prepareSandbox(sandboxed.place, callerEnv);
        // What is on main is packed before the worker starts (the sandbox shows packs read-only),
        // one repository's repack at a time.
        const packed = await worktreeLane(`pack:${intent.repo}`)(() => packLooseObjects(intent.repo, gitDir));
        if (typeof packed === 'object') opts.log?.({ msg: 'the repository\'s loose objects could not be packed before the worker started', id: intent.id, repo: intent.repo, err: packed.failed });
      }
      const env = sandboxed ? sandboxEnv(sandboxed.place, callerEnv) : callerEnv;
      // A Stop hook makes Claude Code 2.1.332 draw no prompt suggestions; a person who wants them
      // (or a test of the suggestion guard) turns the witness off for that worker (docs/2026-12-01-structural-screen-reading.md).
      const witness = Boolean(opts.stateDir) && env[WITNESS_OFF_ENV] !== 'off';
      await agentProfile(intent.agent).seed({
        id: intent.id,
        worktree: intent.worktree,
        ...workerDirsOf(intent),
        env,
        posture: postureOf(intent),
        stateDir: opts.stateDir,
        gitCommonDir: gitDir,
        witness,
        ...(sandboxed ? { sandboxed: true } : {}),
      });
    },
    launchSpec(intent) {
      // The same rule as the seed's: a witness needs the state directory and is not turned off.
      const witnessOn = Boolean(opts.stateDir) && { ...envOf(intent.id), ...envAdds.get(intent.id) }[WITNESS_OFF_ENV] !== 'off';
      const where = {
        worktree: intent.worktree, ...workerDirsOf(intent), agentVersion: intent.agentVersion ?? null, ...(opts.stateDir ? { stateDir: opts.stateDir } : {}), ...(witnessOn && opts.stateDir ? { witnessHome: opts.stateDir } : {}),
        // hand relaunch --resume: the agent continues its own session (proved before this launch was asked for).
        ...(intent.resumeSession ? { resumeSession: intent.resumeSession } : {}),
      };
      const spec = launchSpec(intent.agent, { callerEnv: envOf(intent.id), envAdd: envAdds.get(intent.id), daemonEnv: opts.fallbackEnv, posture: postureOf(intent), where });
      // The witness hooks (settings.local.json) speak for this worker; their command names the
      // state directory (--home), so HAND_HOME is never in a worker's environment.
      delete spec.env[HOOK_HOME_ENV];
      // Its capability travels with it (the launch env is a 0600 file): a hook speaks only for its own worker.
      delete spec.env[HOOK_CAP_ENV];
      if (opts.stateDir) Object.assign(spec.env, { [HOOK_WORKER_ENV]: intent.id, [HOOK_CAP_ENV]: hookCapability(opts.stateDir, intent.id) });
      const found = sandboxPlaceOf(intent);
      if (!found) return spec;
      const sandboxed = withEnvPaths(found, intent.agent, spec.env);
      const sb = workerSandbox(sandboxed.place, spec.env, spec.argv, sandboxed.bwrap);
      return { argv: sb.argv, env: sb.env };
    },
    async markFirstPrompt(intent, paneId) {
      await markWhenWritable(dirname(intent.briefPath), 'first-prompt', { paneId, at: Date.now() }, (err) => opts.log?.({ msg: 'first prompt held before its Enter: its submission cannot be recorded yet', id: intent.id, err: String(err) }));
    },
    firstPromptMarked: (intent, paneId) => readFirstPromptMark(dirname(intent.briefPath), paneId) !== null,
    async markDecision(intent, paneId, key) {
      await markWhenWritable(dirname(intent.briefPath), 'decision', { paneId, at: Date.now(), key }, (err) => opts.log?.({ msg: 'a decision answer held before its Enter: its submission cannot be recorded yet', id: intent.id, decision: key, err: String(err) }));
    },
    decisionMarked: (intent, paneId) => readSubmissionMark(dirname(intent.briefPath), 'decision', paneId)?.key ?? null,
    clearSubmissionMarks: (intent) => {
      clearSubmissionMark(dirname(intent.briefPath), 'first-prompt');
      clearSubmissionMark(dirname(intent.briefPath), 'decision');
    },
    // The report is the worker's: opened without following a link or blocking on a FIFO, a
    // regular file of ours only (io/fs/untrusted-file.ts). Refused is not absent: it is thrown, so
    // the worker is not done and its problem names the reason.
    async reportExists(path) {
      const r = await probeUntrustedFile(path);
      if (r.kind === 'refused') throw new RefusedFileError(path, r.refused, r.reason);
      return r.kind === 'present';
    },
    async readReport(path) {
      const r = await readUntrustedFile(path, { maxBytes: REPORT_READ_CAP });
      if (r.kind === 'refused') throw new RefusedFileError(path, r.refused, r.reason);
      if (r.kind === 'absent') return { waitingOn: null };
      return { waitingOn: parseWaitingOn(r.text)?.question ?? null };
    },
    async sendText(host, paneId, text, o) {
      await guardedSendText(host, paneId, text, { allowNonEmptyBox: o.allowNonEmptyBox, label: o.label, teardown: o.teardown, agent: o.agent, beforeEnter: o.beforeEnter });
    },
    async sendKey(host, paneId, key, o) {
      await guardedSendKey(host, paneId, key, { allowNonEmptyBox: o.allowNonEmptyBox, isFirstKey: true, agent: o.agent });
    },
  };
}
