/**
 * One agent started for calibration the way a worker starts, so what is calibrated is what the
 * fleet runs: a scratch git repository and worktree, a throwaway HOME and state directory (all
 * under one private temp directory, removed at the end), the daemon's own worker ports
 * (io/ports/real-ports.ts: the profile's seed, its launch argv and environment, kingshand's sandbox
 * around it where the machine can build one) under the `ask` posture (the one posture that shows
 * every dialog), in a terminal host of the calibration's own (a private tmux server or a pty),
 * never the fleet's. Nothing of the person's is read or written: HOME, the agent's config and the
 * repository are the scratch ones, and the agent's API is the fake on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runGit } from '../../io/git/run-git.ts';
import { resolveBaseRef } from '../../io/git/index.ts';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import type { AgentProfile } from '../../io/agent/profiles/index.ts';
import type { CalibrationKit } from '../../io/agent/calibration-kit.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { reportPathOf, workerDirsOf } from '../../io/brief/worker-layout.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import { createRealPorts } from '../../io/ports/real-ports.ts';

export type Env = Record<string, string | undefined>;

/** The posture a calibration runs under: the one in which every dialog (a permission too) can show. */
export const CALIBRATION_POSTURE = 'ask';

export interface ScratchWorker {
  intent: WorkerIntent;
  /** The throwaway state directory (the witness listens in its voice directory). */
  stateDir: string;
  /** The environment the agent was launched with (in kingshand's sandbox: its own data homes). */
  launchEnv: Record<string, string>;
  host: TerminalHost;
  paneId: string;
  sandboxed: boolean;
  /** Why the agent runs without kingshand's sandbox (null when it runs in it). */
  sandboxNote: string | null;
  /** Closes the pane and the terminal server, and removes every file of the run. */
  cleanup(): Promise<void>;
}

export interface ScratchWorkerOptions {
  profile: AgentProfile;
  kit: CalibrationKit;
  version: string | null;
  fakeUrl: string;
  /** The daemon's environment: it finds the agent's binary as a dispatch does (HAND_*_BIN, pinned, PATH). */
  daemonEnv: Env;
  sandbox: SandboxAvailability;
  backend: 'tmux' | 'pty';
  /** Where the run's private directory is made (default the system's temp directory). */
  scratchParent?: string;
  /** Called once the state directory exists and before the agent starts (the witness listens then). */
  beforeLaunch?(stateDir: string, workerId: string): Promise<void>;
}

async function git(cwd: string, args: string[]): Promise<void> {
  const r = await runGit(cwd, args);
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} in the calibration's scratch repository failed: ${r.spawnError ?? r.stderr.trim()}`);
}

/** A repository with one commit on main, as a person's annexed one. */
async function scratchRepo(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  await git(repo, ['init', '-q', '-b', 'main']);
  writeFileSync(join(repo, 'README.md'), '# calibration\n\nA scratch repository of `hand doctor --calibrate`.\n');
  await git(repo, ['add', 'README.md']);
  await git(repo, ['-c', 'user.name=kingshand', '-c', 'user.email=calibration@kingshand.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'calibration']);
}

/** A directory that a process just told to leave may still be written in: retried for a moment. */
async function removeWhenQuiet(path: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (err) {
      if (i >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startScratchWorker(o: ScratchWorkerOptions): Promise<ScratchWorker> {
  const root = mkdtempSync(join(o.scratchParent ?? tmpdir(), 'kh-calibrate-'));
  const stateDir = join(root, 'state');
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  let host: TerminalHost | null = null;
  let paneId: string | null = null;
  const cleanup = async () => {
    if (host && paneId) await host.close(paneId).catch(() => undefined);
    if (host?.backend === 'tmux') await (host as TmuxHost).killServer().catch(() => undefined);
    await host?.dispose().catch(() => undefined);
    await removeWhenQuiet(root);
  };
  try {
    for (const d of [stateDir, home]) mkdirSync(d, { recursive: true, mode: 0o700 });
    await scratchRepo(repo);
    const id = `calibrate-${o.profile.name}`;
    const briefDir = join(stateDir, 'workers', id);
    const intent: WorkerIntent = {
      id,
      project: 'calibration',
      repo,
      worktree: join(repo, '.claude', 'worktrees', id),
      branch: `worktree-${id}`,
      base: (await resolveBaseRef(repo)).base,
      backend: o.backend,
      agent: o.profile.name,
      agentVersion: o.version,
      briefPath: join(briefDir, 'brief.md'),
      reportPath: reportPathOf(briefDir),
      createdAt: Date.now(),
    };
    for (const d of Object.values(workerDirsOf(intent))) mkdirSync(d, { recursive: true, mode: 0o700 });
    writeFileSync(intent.briefPath, '# Calibration\n\nNo task: `hand doctor --calibrate` drives this session itself.\n', { mode: 0o600 });
    // The environment of a person's dispatch: their PATH (node first, as the daemon found it),
    // the scratch HOME, and the agent's own variables as `--env` (its key, its endpoint).
    const callerEnv: Record<string, string> = {
      PATH: [dirname(process.execPath), o.daemonEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':'),
      HOME: home,
      USER: o.daemonEnv.USER ?? 'kingshand',
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      SHELL: '/bin/bash',
    };
    const envAdd = o.kit.seedHome(home, o.fakeUrl, o.version);
    const ports = createRealPorts({ fallbackEnv: o.daemonEnv, stateDir, postureOf: () => CALIBRATION_POSTURE, sandbox: () => o.sandbox });
    ports.rememberCallerEnv(id, callerEnv, envAdd);
    const signal = new AbortController().signal;
    await ports.prepareWorktree(intent, signal);
    await ports.seedAgent(intent, signal);
    const spec = ports.launchSpec(intent);
    await o.beforeLaunch?.(stateDir, id);
    host = o.backend === 'tmux'
      ? createTmuxHost({ socketPath: join(root, 'tmux.sock'), launchDir: join(root, 'launch') })
      : createPtyHost({ launchDir: join(root, 'launch') });
    const pane = await host.createPane({ name: id, cwd: intent.worktree, env: spec.env, argv: spec.argv });
    paneId = pane.paneId;
    return {
      intent,
      stateDir,
      launchEnv: spec.env,
      host,
      paneId,
      sandboxed: o.sandbox.ok,
      sandboxNote: o.sandbox.ok ? null : `kingshand's sandbox cannot be built here (${o.sandbox.reason}): the agent ran as a worker here runs, without it`,
      cleanup,
    };
  } catch (err) {
    await cleanup().catch(() => undefined);
    throw err;
  }
}
