/**
 * A registered project in a real git repository, a real SQLite store, and a fake fleet host.
 * The fake is only the terminal side (the fleet is not under test): on dispatch it does what the
 * real worker ports do to the disk — creates the worktree and writes the Claude settings — so a
 * test can see exactly what a dispatch created.
 */
import { meaningOfStage } from '../../actors/condition.ts';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore } from '../../persistence/sqlite-store.ts';
import type { FleetStore, Posture, WorkerIntent } from '../../persistence/types.ts';
import { createWorktree, repoTopLevel, resolveBaseRef } from '../../io/git/index.ts';
import { writeClaudeSettings } from '../../io/agent/claude/index.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { dispatchWorker, type DispatchDeps, type DispatchParams } from '../../daemon/fleet/dispatch.ts';
import { git, makeRepo, type Fixture } from '../git/git-fixture.ts';
import { makeTempDir } from '../helpers/temp.ts';

export interface FakeFleet extends FleetHostApi {
  dispatched: WorkerIntent[];
  /** The dispatch gate each dispatch asked for (true = wait for brief approval). */
  briefGates: (boolean | undefined)[];
  failNext?: Error;
  /** What the screen would have told the fleet (settled, parked…), set by the test. */
  setView(id: string, patch: Partial<WorkerViewLike>): void;
  /** Stages stop() ends in; 'teardown.timedOut' stands for an agent that would not leave. */
  stopStage: string;
  stops: string[];
}

/** A view as the fleet host builds it: condition and marks follow the stage's tags. */
export function viewOf(intent: WorkerIntent, over: Partial<WorkerViewLike> = {}): WorkerViewLike {
  const meaning = meaningOfStage(over.stage ?? 'running.working');
  return {
    ...meaning,
    id: intent.id, project: intent.project, stage: 'running.working', state: 'working', awaitingInput: false, blockedReason: null, promptBox: null,
    readable: true, live: true, backend: intent.backend, host: intent.host ?? 'local', agent: intent.agent, worktree: intent.worktree, branch: intent.branch, base: intent.base,
    briefPath: intent.briefPath, reportPath: intent.reportPath, reportExists: existsSync(intent.reportPath), lastActivity: '', lastChangeAt: null,
    stallAt: null, exitCode: null, updatedAt: Date.now(), waitingOn: null, promptBoxKind: null, paneId: null, problem: null, gate: null, landing: null, landed: null, rejection: null, landingFailure: null, ...over,
  };
}

export function fakeFleet(store: FleetStore): FakeFleet {
  const views = new Map<string, WorkerViewLike>();
  const unsupported = (what: string) => () => Promise.reject(new Error(`fake fleet: ${what} is not used by these tests`));
  const fleet: FakeFleet = {
    dispatched: [],
    briefGates: [],
    stopStage: 'stopped',
    storeHealth: () => null,
    inLane: (_id, fn) => fn(),
    resumeAnswer: async () => 'none',
    answerWentIn: () => {},
    hostConnection: () => {},
    stops: [],
    setView(id, patch) {
      const v = { ...views.get(id)!, ...patch };
      views.set(id, { ...v, ...meaningOfStage(v.stage) });
    },
    async dispatch({ intent, briefGate }) {
      fleet.dispatched.push(intent);
      fleet.briefGates.push(briefGate);
      if (fleet.failNext) {
        const err = fleet.failNext;
        fleet.failNext = undefined;
        throw err;
      }
      await createWorktree({ repo: intent.repo, id: intent.id, base: intent.base });
      writeClaudeSettings({ worktree: intent.worktree, briefDir: dirname(intent.briefPath), permissionMode: 'default' });
      store.insertWorker(intent);
      const v = viewOf(intent);
      views.set(intent.id, v);
      return v;
    },
    view: (id) => views.get(id) ?? null,
    views: () => [...views.values()],
    subscribe: () => () => {},
    send: unsupported('send'),
    key: unsupported('key'),
    async stop(id) {
      fleet.stops.push(id);
      const stopped = fleet.stopStage === 'stopped';
      const v = { ...views.get(id)!, stage: fleet.stopStage, ...meaningOfStage(fleet.stopStage), live: !stopped };
      views.set(id, v);
      return { view: v, exitCode: stopped ? 0 : null, paneReusable: stopped };
    },
    readScreen: unsupported('readScreen'),
    // No pane behind this fleet: the view it holds is the reading.
    freshView: async (id) => views.get(id) ?? null,
    release: unsupported('release'),
    approve: unsupported('approve'),
    reject: unsupported('reject'),
    openLanding: unsupported('openLanding'),
    async shutdown() {},
  };
  return fleet;
}

export interface DispatchWorld {
  repo: string;
  home: string;
  dataDir: string;
  workersDir: string;
  /** Files the caller owns (briefs, specs), outside the repo and the home. */
  inbox: string;
  store: FleetStore;
  fleet: FakeFleet;
  deps: DispatchDeps;
  fixture: Fixture;
  params(over?: Partial<DispatchParams>): DispatchParams;
  writeInbox(rel: string, text: string): string;
  dispatch(over?: Partial<DispatchParams>): Promise<WorkerViewLike>;
}

export const GOOD_BRIEF = '# T-1 - add a greeting\n\n## Goal\nSay hello.\n\n## Read first\n- Nothing beyond this brief - the index was checked and nothing in it applies.\n\n## Scope\nrepo only\n';

/** Registers an afterEach that closes the store and removes every directory of each world. */
export function trackWorlds(): (opts?: { posture?: Posture; yolo?: boolean; register?: boolean; fixture?: Fixture }) => Promise<DispatchWorld> {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    while (cleanups.length) cleanups.pop()!();
  });
  return async (opts = {}) => {
    const fixture = opts.fixture ?? makeRepo({ label: 'dispatch' });
    const tmp = makeTempDir('dispatch-home');
    const home = join(tmp.path, 'home');
    const dataDir = join(home, 'data');
    const inbox = join(tmp.path, 'inbox');
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(inbox);
    const store = openStore(join(home, 'fleet.db'));
    cleanups.push(fixture.cleanup, tmp.cleanup, () => store.close());
    const repo = await repoTopLevel(fixture.repo);
    if (opts.register !== false) store.upsertProject({ name: 'app', repo, posture: opts.posture ?? 'local-only', yolo: opts.yolo ?? false, registeredAt: 1 });
    const fleet = fakeFleet(store);
    const deps: DispatchDeps = {
      store,
      fleet,
      workersDir: join(home, 'workers'),
      dataDir,
      repoTopLevel,
      resolveBase: async (r) => (await resolveBaseRef(r)).base,
      backendProblem: () => null,
      agentProblem: () => null,
      rememberCallerEnv: () => {},
      // The fake fleet launches nothing, so no ~/.claude.json is planned (env is empty here).
      seedsClaudeJson: false,
    };
    const writeInbox = (rel: string, text: string) => {
      const p = join(inbox, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
      return p;
    };
    const brief = writeInbox('brief.md', GOOD_BRIEF);
    const params = (over: Partial<DispatchParams> = {}): DispatchParams => ({
      id: 'T-1', repo, brief, readPaths: [], agent: 'mock', backend: 'tmux', stallMs: 60_000, unclassifiedMs: 30_000, env: {}, ...over,
    });
    return { repo, home, dataDir, workersDir: deps.workersDir, inbox, store, fleet, deps, fixture, params, writeInbox, dispatch: (over) => dispatchWorker(params(over), deps) };
  };
}

/** What "nothing was created" means: no brief dir, no worktree, no branch, no pane asked for. */
export function createdBy(w: DispatchWorld, id = 'T-1'): string[] {
  const found: string[] = [];
  if (existsSync(join(w.workersDir, id))) found.push(`brief dir ${join(w.workersDir, id)} (${readdirSync(join(w.workersDir, id)).join(', ')})`);
  // The daemon's own copy of the brief (io/brief/worker-layout.ts) goes with a refused dispatch too.
  if (existsSync(join(dirname(w.workersDir), 'briefs', `${id}.md`))) found.push(`brief copy briefs/${id}.md`);
  if (existsSync(join(w.repo, '.claude', 'worktrees', id))) found.push('worktree directory');
  if (git(w.repo, 'branch', '--list', `worktree-${id}`) !== '') found.push(`branch worktree-${id}`);
  if (w.fleet.dispatched.length > 0) found.push(`${w.fleet.dispatched.length} fleet dispatch call(s) (a pane)`);
  if (w.store.getWorker(id)) found.push('worker row');
  return found;
}
