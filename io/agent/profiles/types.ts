/**
 * What kingshand needs to know about one agent CLI, beside how its screen reads (that is the
 * screen profile, io/screen/profiles/): how to find and launch it, how each permission posture
 * maps onto it, what it refuses to start under, how to seed it for an unattended start, what ends
 * it and whether it has a second witness. Data plus small functions, one file per agent; the
 * daemon asks the registry (./index.ts) and never tests an agent's name.
 */
import type { AgentName, PermissionPosture } from '../../../contract/vocabulary.ts';
import type { AgentSandboxHome } from '../../sandbox/agent-home.ts';
import type { ProjectSettingsSource } from '../project-settings/types.ts';
import type { CalibrationKit } from '../calibration-kit.ts';
import type { SessionFormat } from '../sessions/types.ts';

export type Env = Record<string, string | undefined>;

/** Everything a seed may use; it writes only under the worktree, the brief directory and the agent's own config files. */
export interface SeedContext {
  id: string;
  worktree: string;
  /**
   * The worker's brief directory under the state directory: what it READS (brief.md, read-first/,
   * progress-note.md). Only the daemon writes there (io/brief/worker-layout.ts).
   */
  briefDir: string;
  /** Where the worker WRITES: its report directory (`<briefDir>/out`; the brief directory itself for a worker dispatched before). */
  reportDir: string;
  /** The environment the agent is launched with (the caller's allow-listed env plus --env). */
  env: Record<string, string>;
  posture: PermissionPosture;
  /** kingshand's state directory: it goes on the agent's deny list where it has one. */
  stateDir?: string;
  /** The repository's common git directory (commits from a sandbox need to write it). */
  gitCommonDir?: string;
  /** Whether the second witness (hooks) is wanted for this worker. */
  witness: boolean;
  /**
   * The worker runs in kingshand's sandbox (io/sandbox/): an agent's own sandbox is not nested
   * inside it (the kernel refuses the inner one a /proc of its own; docs/2026-12-06-kingshand-sandboxes-the-whole-agent.md).
   */
  sandboxed?: boolean;
}

/**
 * Files on another host (issue 28), over its ssh connection: read back here, merged here,
 * written there (0600, a temp file renamed over the original, a symlink written through).
 */
export interface FarFiles {
  /** The file's text, or null when it is not there. */
  read(path: string): Promise<string | null>;
  write(path: string, text: string): Promise<void>;
  /**
   * A file of the daemon's in the worker's own directory there (issue 37): a link at its name is
   * replaced, never written through (the far worker may have planted it).
   */
  writeOwn(path: string, text: string): Promise<void>;
  /**
   * A file the far worker may have written (in its worktree there): read without following a link,
   * a regular file of the far account's own, at most 1 MiB; null when absent; a refusal is thrown
   * with why (issue 37).
   */
  readUntrusted(path: string): Promise<string | null>;
  /** The directory's real path there (symlinks resolved), as the agents key folder trust. */
  realDir(path: string): Promise<string>;
}

/** Everything a far seed may use: the worker's places on that host and its files there. */
export interface FarSeedContext {
  /** The host's name, for messages (`build:/home/ci/.codex/config.toml`). */
  host: string;
  worktree: string;
  /** The worker's brief directory there (brief, read-first/, progress note): it reads it. */
  briefDir: string;
  /** Its report directory there (`<briefDir>/out`): the one place of the state directory it writes. */
  reportDir: string;
  /** HOME of the far account. */
  home: string;
  /** kingshand's state directory there (on the deny lists). */
  stateDir: string;
  /** The environment the agent is launched with there. */
  env: Record<string, string>;
  posture: PermissionPosture;
  gitCommonDir?: string;
  files: FarFiles;
}

/** Where one worker lives. */
export interface WorkerPlace {
  worktree: string;
  /** The worker's brief directory under the state directory: it reads it, only the daemon writes it. */
  briefDir: string;
  /** Its report directory (`<briefDir>/out`): the one place under the state directory it writes. */
  reportDir: string;
  /** kingshand's state directory when the worker's second witness is wanted (absent: no witness). */
  witnessHome?: string;
  /** The agent's release as dispatch read it (`--version`): an argument an older release does not know is left out. */
  agentVersion?: string | null;
  /** kingshand's state directory (on the host the worker runs on): on the deny list of an agent told it at launch. */
  stateDir?: string;
  /** Continue this session of the agent's (issue 41: `hand relaunch --resume`) instead of starting a new one. */
  resumeSession?: string;
}

/** How an agent keeps its conversations and resumes one by id (io/agent/sessions/). */
export interface AgentSessions {
  format: SessionFormat;
  /** The launch's argv (program first) changed to continue `sessionId`. */
  resumeArgv(argv: readonly string[], sessionId: string): string[];
}

export interface AgentProfile {
  readonly name: AgentName;
  /** How a person calls it: "Claude Code". */
  readonly label: string;
  /** The command that installs the pinned version (a refusal's and doctor's fix). */
  readonly install: string;
  /** The screen profile its screens are read with (io/screen/profiles). */
  readonly screenProfile: string;
  /** Typed into its prompt box to end it. */
  readonly exitCommand: string;
  /** The second witness it offers, or 'none' with why (the screen alone decides then). */
  readonly witness: { kind: 'hooks' | 'notify' | 'none'; note: string };
  /** The program to start, as the daemon's environment finds it, or null when it is not installed. */
  binary(daemonEnv: Env): string | null;
  /** Its version (`--version`), or null when it cannot tell. */
  version(binary: string): Promise<string | null>;
  /**
   * The full argv for one launch under a posture (program first; the first prompt is typed, never
   * passed). `where`: the worker's directories, for an agent whose sandbox is told on the command
   * line what it may write (Codex CLI); absent when no worker is being launched (doctor).
   */
  launchArgv(binary: string, posture: PermissionPosture, where?: WorkerPlace): string[];
  /**
   * Variables its launch needs beside the caller's, for an agent that takes its per-worker setup
   * from its environment (OpenCode: its config, permission rules and witness plugin). Applied over
   * the allow-listed environment, before `--env` (the person's explicit word wins). `env`: the
   * launch environment so far (its HOME). Absent: none.
   */
  launchEnv?(posture: PermissionPosture, where: WorkerPlace | undefined, env: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * The same launch on another host (issue 28): the program by its name on that host's PATH.
   * `where`: the worker's directories there (no witness: `hand hook` cannot reach this daemon).
   */
  farLaunchArgv(posture: PermissionPosture, where?: WorkerPlace): string[];
  /**
   * How a far host tells its version (program first; `stateDir`: kingshand's directory there, for
   * an agent that writes into its home even for --version). Absent: only its presence is asked,
   * and `hand host check` does not list it (the mock agent).
   */
  readonly farVersion?: { argv(stateDir: string): string[]; parse(text: string): string | null };
  /** Its seed on another host: the same files as `seed` writes here, through `ctx.files`. */
  farSeed(ctx: FarSeedContext): Promise<void>;
  /**
   * A refusal before anything is created (e.g. root without a sandbox), or null. `facts.sandboxed`:
   * the worker will run in kingshand's sandbox (where root outside is an ordinary user inside).
   */
  dispatchProblem(posture: PermissionPosture, project: string, env: Env, facts?: { sandboxed: boolean }): Error | null;
  /**
   * What the posture asks that this agent cannot do, said at dispatch (null: all of it). Never
   * silently widened. `facts.sandboxed`: the worker runs in kingshand's sandbox, which is then the
   * boundary whatever the agent's own features.
   */
  postureGap(posture: PermissionPosture, facts?: { sandboxed: boolean }): string | null;
  /**
   * Names of the caller's variables its workers need beyond the shared allow-list (its own home
   * and API key): kept for this agent's workers only, never for another agent's.
   */
  readonly workerEnv?: readonly string[];
  /** false: its seed writes no ~/.claude.json, so dispatch plans and reports none (absent: it does). */
  readonly seedsClaudeJson?: false;
  /** Settings for an unattended start (trust, onboarding, approvals, deny list, witness hooks). */
  seed(ctx: SeedContext): Promise<void>;
  /**
   * How it runs from a config directory of the worker's own inside kingshand's sandbox
   * (io/sandbox/agent-home.ts): the variable that moves its config, what of the person's comes in
   * read-only and what writable. Absent: it keeps no config of its own.
   */
  readonly sandboxHome?: AgentSandboxHome;
  /** Files its launch environment names that it reads (`ro`) or appends to (`rw`), for its sandbox. */
  sandboxPaths?(env: Env): { ro: string[]; rw: string[] };
  /**
   * What the CLI takes from a project directory it trusts that can run a command or grant a
   * permission (hooks, MCP servers, allow rules, env…): shown at annex, and a landing that changes
   * one needs the person's explicit word (io/agent/project-settings/). Required, so a new agent
   * says what it reads before it can be dispatched into anyone's repository.
   */
  readonly projectSettings: readonly ProjectSettingsSource[];
  /**
   * How `hand doctor --calibrate` drives it against a fake model API (io/agent/calibration-kit.ts).
   * Absent: nothing to calibrate (the mock agent draws kingshand's own copy of Claude Code's screens).
   */
  readonly calibration?: CalibrationKit;
  /**
   * Its session record and how it resumes one (issue 41). Absent: its conversations cannot be
   * resumed (a relaunch starts a fresh session) and its cost is not known.
   */
  readonly sessions?: AgentSessions;
}
