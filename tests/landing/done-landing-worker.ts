/**
 * The landing tests' world: a real repository and worktree, the REAL worker machine on the
 * scripted host, and one worker walked to done (its work done in its worktree, its report
 * written, its turn ended), with the daemon's landing handlers over it. Written once for every
 * file that lands through the handlers.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { createLandingPort, landingHandlers } from '../../daemon/gates/landing.ts';
import { createWorktree, repoTopLevel } from '../../io/git/index.ts';
import type { Posture } from '../../persistence/types.ts';
import { commitFile, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { makeHarness, intent, settle, STALL_MS, type Harness, showStartScreen, showTurnEnd } from '../actors/helpers/harness.ts';
import { reading } from '../actors/helpers/scripted-host.ts';

export interface DoneWorker {
  h: Harness;
  repo: string;
  worktree: string;
  briefDir: string;
  handlers: ReturnType<typeof landingHandlers>;
  pane: string;
}

export interface DoneWorkerOptions {
  /** Names the repository fixture and the state directory. */
  label: string;
  /** What the worker does in its worktree before its report. */
  work: (worktree: string) => void;
  report: string;
  posture?: Posture;
  yolo?: boolean;
  env?: Record<string, string>;
  /** Committed to main before the worker starts. */
  onMain?: Record<string, string>;
  /** Runs inside every check for the report (a test holds the check up with it). */
  reportCheck?: () => Promise<void>;
}

/** Call once at the top of a file: the returned function makes a worker at done, undone after each test. */
export function useDoneWorkers(): (o: DoneWorkerOptions) => Promise<DoneWorker> {
  const track = trackFixtures();
  const undo: (() => void)[] = [];
  afterEach(() => {
    while (undo.length) undo.pop()!();
  });
  return async (o) => {
    const fx = track(makeRepo({ label: o.label }));
    const tmp = makeTempDir(`${o.label}-home`);
    undo.push(tmp.cleanup);
    const repo = await repoTopLevel(fx.repo);
    for (const [file, text] of Object.entries(o.onMain ?? {})) commitFile(repo, file, text, `add ${file}`);
    const briefDir = join(tmp.path, 'workers', 'T-1');
    mkdirSync(briefDir, { recursive: true });
    writeFileSync(join(briefDir, 'brief.md'), '# T-1\n');
    const it = intent('T-1', { project: 'app', repo, worktree: join(repo, '.claude', 'worktrees', 'T-1'), branch: 'worktree-T-1', briefPath: join(briefDir, 'brief.md'), reportPath: join(briefDir, 'report.md') });
    const env = o.env ?? process.env;
    let h!: Harness;
    h = makeHarness({
      ports: { prepareWorktree: async (i) => void (await createWorktree({ repo: i.repo, id: i.id, base: i.base })), reportExists: async (p) => (await o.reportCheck?.(), existsSync(p)) },
      landing: createLandingPort({ store: { getProject: (n: string) => h.store.getProject(n) }, env }),
    });
    h.store.upsertProject({ name: 'app', repo, posture: o.posture ?? 'local-only', yolo: o.yolo ?? false, registeredAt: 1 });
    await h.fleet.start();
    const v = await h.fleet.dispatch({ intent: it, stallMs: STALL_MS, firstPrompt: 'brief' });
    const pane = v.paneId!;
    await showStartScreen(h, pane);
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-w' }));
    await settle(h);
    o.work(it.worktree);
    writeFileSync(it.reportPath, o.report);
    // A finished turn settles once its screen stays quiet (SETTLE_QUIET_MS).
    await showTurnEnd(h, pane);
    expect(h.fleet.view('T-1')!.stage).toBe('done');
    // The agent leaves on /exit, as the real one does.
    h.host.onSend = (p, rec) => { if (rec.text === '/exit') queueMicrotask(() => h.host.exit(p, 0)); };
    undo.push(() => void h.fleet.shutdown());
    return { h, repo, worktree: it.worktree, briefDir, handlers: landingHandlers({ store: h.store, fleet: h.fleet, env }), pane };
  };
}
