/**
 * kingshand's sandbox around a whole worker (issue 37 item 1): the agent and everything it starts
 * — its tools, its hooks, a repository's own hooks, the shells and programs those run — run in a
 * bubblewrap sandbox built here, whatever the agent. Inside it:
 *
 *  - kingshand's state directory does not exist (an empty directory stands there), so neither do
 *    the daemon's socket, the authority key, the hook key, the review token, the database, the
 *    tmux socket or any other worker's files — except this worker's brief directory (read-only),
 *    its report directory (writable), its own agent directory (writable) and the voice socket
 *    through which its hooks speak for it alone;
 *  - the person's credentials (~/.ssh, cloud and forge logins, …), their own agent configuration
 *    and conversations, and the system's secrets do not exist (secret-places.ts);
 *  - everything else is read-only: the worktree, the brief's report directory, the agent's own
 *    directory, a private /tmp and the parts of the repository's git directory a commit writes
 *    (objects, refs, logs, this worktree's own metadata) are the only writable places; the base
 *    branch's ref and the repository's hooks, config, HEAD and index are not;
 *  - /run (the person's and the system's sockets: D-Bus, an ssh agent, a container engine) is
 *    empty, /tmp is the worker's own, /proc shows only the sandbox's processes (another
 *    process's /proc/<pid>/root, environ or fds — the daemon's — do not exist), and there is no
 *    capability even when the person is root (root is an ordinary user inside).
 *
 * The network is shared: the model API (which may be on loopback) stays reachable. Nothing on
 * loopback can be asked with kingshand's authority from inside, because no secret that carries
 * it exists there.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { bwrapArgs, type Mount } from './mount-plan.ts';
import { homeSecretPlaces, SYSTEM_SECRET_FILES } from './secret-places.ts';
import { personsEntry, prepareAgentHome, type AgentSandboxHome } from './agent-home.ts';

/** The uid and gid root is mapped to inside (root outside keeps no power inside; an agent that refuses to run as root runs). */
export const ROOT_INSIDE_AS = 1000;

/** The worker's places, as the daemon knows them (never read from a file the worker could write). */
export interface WorkerSandboxPlace {
  id: string;
  /** The agent's name: its config directory is `<state>/agents/<id>/<agent>`. */
  agent: string;
  worktree: string;
  /** The daemon's files for the worker (brief, read-first copies, progress note): read-only inside. */
  briefDir: string;
  /** Where the worker writes its report: writable inside (the brief directory itself where no separate one exists). */
  reportDir: string;
  stateDir: string;
  /** The registered repository (the person's checkout). */
  repo: string;
  /** `git rev-parse --git-common-dir` of the repository. */
  gitCommonDir: string | null;
  /** This worktree's own metadata directory (`<common>/worktrees/<name>`). */
  worktreeGitDir: string | null;
  /** Loose ref files pinned read-only (the base branch's). */
  pinnedRefs: readonly string[];
  /** The agent's profile says how it runs from a directory of its own; absent: it has none (the mock). */
  agentHome?: AgentSandboxHome;
  /** Programs and trees the launch needs (the agent's binary, node, kingshand's checkout): reachable even under /tmp. */
  needs: readonly string[];
  /**
   * Files its launch environment names (the person's CA bundle, the mock's script): `ro` are
   * brought back read-only where a hidden place covers them, `rw` made writable (an existing file).
   */
  envPaths?: { ro: readonly string[]; rw: readonly string[] };
  /** A read-only worker (counsel): the worktree and the repository's git are read-only inside; only its report's directory is writable. */
  readOnly?: boolean;
}

/** Variables whose value is a file or directory an agent reads (TLS trust a proxy needs). */
export const ENV_FILE_VARS = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'] as const;

export interface WorkerSandbox {
  /** The launch's argv, wrapped. */
  argv: string[];
  /** The launch's environment with the sandbox's places (its own temp, runtime and agent directories). */
  env: Record<string, string>;
  /** What the sandbox is made of, for status and tests. */
  spec: { mounts: Mount[]; innerId?: number };
}

/** Where one worker's sandbox keeps its own things: `<state>/agents/<id>`. */
export function agentsDirOf(stateDir: string, id: string): string {
  return join(stateDir, 'agents', id);
}

/** The directory the daemon's hooks socket lives in, bound read-only into every sandbox (daemon/main.ts listens there). */
export function voiceDirOf(stateDir: string): string {
  return join(stateDir, 'voice');
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function kindOf(path: string): 'dir' | 'file' | null {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) {
      // Hidden where it leads as well as where it is: a link's target is what a read reaches.
      const real = realpathSync(path);
      return lstatSync(real).isDirectory() ? 'dir' : 'file';
    }
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

function hide(path: string, out: Mount[]): void {
  const kind = kindOf(path);
  if (kind === 'dir') out.push({ kind: 'hide-dir', path });
  else if (kind === 'file') out.push({ kind: 'hide-file', path });
}

/** The file every hidden file is replaced with: empty, read-only, the daemon's. */
function emptyFileOf(stateDir: string): string {
  const path = join(stateDir, 'sandbox', 'empty');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, '', { mode: 0o444 });
  }
  return path;
}

/** Where /etc/resolv.conf leads when that is under /run (systemd-resolved, resolvconf): brought back read-only. */
function resolverPlaces(): string[] {
  try {
    if (!lstatSync('/etc/resolv.conf').isSymbolicLink()) return [];
    const target = resolve('/etc', readlinkSync('/etc/resolv.conf'));
    const real = existsSync(target) ? realpathSync(target) : target;
    return within(real, '/run') ? [dirname(real)] : [];
  } catch {
    return [];
  }
}

/** The worker's own directories (0700): its agent's config, its /tmp, its runtime and caches. */
function ownDirs(place: WorkerSandboxPlace) {
  const own = agentsDirOf(place.stateDir, place.id);
  const dirs = { own, tmp: join(own, 'tmp'), run: join(own, 'run'), cache: join(own, 'cache'), agent: join(own, place.agent) };
  for (const d of [dirs.own, dirs.tmp, dirs.run, dirs.cache]) mkdirSync(d, { recursive: true, mode: 0o700 });
  return dirs;
}

/**
 * The launch environment as the sandbox changes it: the worker's own temp, runtime and cache
 * places (the person's are read-only or hidden inside) and the agent's config directory of its
 * own. The seed reads this environment too, so trust lands in the file the agent will read.
 * `env`: the launch environment as the person's dispatch made it.
 */
export function sandboxEnv(place: WorkerSandboxPlace, env: Record<string, string>): Record<string, string> {
  const d = ownDirs(place);
  const out: Record<string, string> = { ...env };
  // TMPDIR is this directory rather than /tmp (the same place inside): Codex CLI sets up its own
  // sandbox only when its home is not under the temp directory.
  out.TMPDIR = d.tmp;
  if (out.CLAUDE_CODE_TMPDIR !== undefined) out.CLAUDE_CODE_TMPDIR = d.tmp;
  out.XDG_RUNTIME_DIR = d.run;
  out.npm_config_cache ??= join(d.cache, 'npm');
  out.GOCACHE ??= join(d.cache, 'go-build');
  // git's housekeeping writes beside the objects (gc.pid, packed-refs), which stay the person's.
  if (out.GIT_CONFIG_COUNT === undefined) {
    Object.assign(out, { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'gc.auto', GIT_CONFIG_VALUE_0: '0', GIT_CONFIG_KEY_1: 'maintenance.auto', GIT_CONFIG_VALUE_1: 'false' });
  }
  if (place.agentHome) {
    out[place.agentHome.env] = d.agent;
    for (const [name, sub] of Object.entries(place.agentHome.alsoEnv ?? {})) out[name] = join(d.agent, sub);
  }
  return out;
}

/**
 * Before the seed of each launch: the worker's own directories, and its agent's config directory
 * made from the person's (copies; the profile says what is made once and what again).
 */
export function prepareSandbox(place: WorkerSandboxPlace, env: Record<string, string>): void {
  const d = ownDirs(place);
  if (place.agentHome) prepareAgentHome(place.agentHome, place.agentHome.personsDir(env), d.agent, env);
}

/** The mounts of one worker's sandbox (see the file's comment for what each is for). */
export function sandboxMounts(place: WorkerSandboxPlace, env: Record<string, string>): Mount[] {
  const mounts: Mount[] = [];
  const d = ownDirs(place);
  const voice = voiceDirOf(place.stateDir);
  mkdirSync(voice, { recursive: true, mode: 0o700 });

  // What no worker reaches: the state directory, the person's secrets, the system's.
  mounts.push({ kind: 'hide-dir', path: place.stateDir });
  const secrets = env.HOME ? homeSecretPlaces(env.HOME) : [];
  for (const s of secrets) hide(s, mounts);
  for (const s of SYSTEM_SECRET_FILES) hide(s, mounts);
  mounts.push({ kind: 'hide-dir', path: '/run' });
  if (kindOf('/var/run') === 'dir' && !lstatSync('/var/run').isSymbolicLink()) mounts.push({ kind: 'hide-dir', path: '/var/run' });
  for (const r of resolverPlaces()) mounts.push({ kind: 'ro', path: r });
  // A private /tmp on disk (a worker's large temp files do not fill the machine's memory).
  mounts.push({ kind: 'rw', path: '/tmp', from: d.tmp }, { kind: 'rw', path: '/var/tmp', from: d.tmp });

  // What it needs to run that a hidden place would otherwise cover (a checkout or HOME under /tmp in tests).
  const hiddenRoots = ['/tmp', '/var/tmp', '/run'];
  const secret = (p: string) => within(p, place.stateDir) || secrets.some((s) => within(p, s));
  const bringBack = (p: string | null | undefined) => {
    if (!p || !isAbsolute(p) || secret(p) || !existsSync(p)) return;
    if (hiddenRoots.some((h) => within(p, h) && p !== h)) mounts.push({ kind: 'ro', path: p });
  };
  bringBack(env.HOME);
  for (const dir of (env.PATH ?? '').split(':')) bringBack(dir);
  for (const n of place.needs) bringBack(n);
  bringBack(place.repo);
  bringBack(place.gitCommonDir);
  for (const v of ENV_FILE_VARS) bringBack(env[v]);
  for (const p of place.envPaths?.ro ?? []) bringBack(p);
  for (const p of place.envPaths?.rw ?? []) {
    if (!isAbsolute(p) || secret(p)) continue;
    // A file not made yet is made by the agent: its directory is what must be writable.
    const target = kindOf(p) === 'file' ? p : kindOf(dirname(p)) === 'dir' ? dirname(p) : null;
    if (target && !secret(target)) mounts.push({ kind: 'rw', path: target });
  }

  // The worker's own places inside the state directory.
  mounts.push({ kind: 'ro', path: place.briefDir });
  mounts.push({ kind: 'rw', path: place.reportDir });
  mounts.push({ kind: 'ro', path: voice });
  mounts.push({ kind: 'rw', path: d.own });

  // git: what a commit on its own branch writes, and nothing that would run as the person.
  // A read-only worker writes no object, ref or log: git stays as the rest of the system, read-only.
  const gitWrite = place.readOnly ? 'ro' : 'rw';
  if (place.gitCommonDir) {
    for (const sub of ['objects', 'refs', 'logs']) {
      const p = join(place.gitCommonDir, sub);
      if (existsSync(p)) mounts.push({ kind: gitWrite, path: p });
    }
    // Packs and the object store's own settings (alternates) stay as they are: what is on main
    // is packed before the worker starts (io/git/pack-loose-objects.ts), out of the worker's reach.
    for (const sub of ['objects/pack', 'objects/info']) {
      const p = join(place.gitCommonDir, sub);
      if (existsSync(p)) mounts.push({ kind: 'ro', path: p });
    }
    if (place.worktreeGitDir && existsSync(place.worktreeGitDir)) mounts.push({ kind: gitWrite, path: place.worktreeGitDir });
    for (const ref of place.pinnedRefs) if (kindOf(ref) === 'file') mounts.push({ kind: 'ro', path: ref });
  }
  mounts.push({ kind: place.readOnly ? 'ro' : 'rw', path: place.worktree });
  // The agents' settings in the worktree (hooks, permission rules, the witness): the person's and kingshand's, not the worker's.
  for (const rel of WORKTREE_AGENT_SETTINGS) {
    const p = join(place.worktree, rel);
    if (kindOf(p) && !lstatSync(p).isSymbolicLink()) mounts.push({ kind: 'ro', path: p });
  }

  if (place.agentHome) {
    const h = place.agentHome;
    const personsDir = h.personsDir(env);
    for (const rel of h.readOnly) {
      const from = personsEntry(personsDir, rel);
      if (from) mounts.push({ kind: 'ro', path: join(d.agent, rel), from });
    }
    for (const rel of h.shared) {
      const from = personsEntry(personsDir, rel);
      if (from) mounts.push({ kind: 'rw', path: join(d.agent, rel), from });
    }
  }
  mounts.push(...rebuiltParents(mounts));
  return mounts;
}

/**
 * A file hidden by binding an empty one over it stays hidden only while the host keeps that very
 * file: a rename over its path on the host (useradd and passwd rewrite /etc/shadow so; Claude Code
 * and npm write ~/.claude.json and ~/.npmrc so) puts a new file where the mount no longer is, and
 * the worker reads it. So each directory holding a hidden file is rebuilt inside as it was when the
 * sandbox was made: an empty directory with every other entry bound back one by one (links as
 * links), the hidden files not among them. An entry mounted on its own (the state directory, a
 * secret directory, the worktree) is left to its own mount.
 */
function rebuiltParents(mounts: readonly Mount[]): Mount[] {
  const taken = new Set(mounts.map((m) => m.path));
  const parents = [...new Set(mounts.filter((m) => m.kind === 'hide-file').map((m) => dirname(m.path)))];
  const out: Mount[] = [];
  for (const parent of parents) {
    let names: string[];
    try {
      if (!lstatSync(parent).isDirectory()) continue;
      names = readdirSync(parent);
    } catch {
      continue;
    }
    out.push({ kind: 'hide-dir', path: parent });
    for (const name of names) {
      const path = join(parent, name);
      if (taken.has(path)) continue;
      try {
        const st = lstatSync(path);
        out.push(st.isSymbolicLink() ? { kind: 'symlink', path, target: readlinkSync(path) } : { kind: 'ro', path, optional: true });
      } catch {
        // gone since the listing: nothing to bring back
      }
    }
  }
  return out;
}

/** In a worktree, the agents' own settings: read-only inside (a worker cannot grant itself a hook or a permission). */
export const WORKTREE_AGENT_SETTINGS = ['.claude', '.gemini', '.codex', '.mcp.json', '.opencode', 'opencode.json', 'opencode.jsonc', '.qwen'] as const;

/**
 * The sandboxed launch: `env` is the launch environment as the person's dispatch made it,
 * `program` the agent's argv, `bwrap` the program that builds the sandbox. Makes the worker's
 * own directories (0700) on the way; reads nothing a worker could have written.
 */
export function workerSandbox(place: WorkerSandboxPlace, env: Record<string, string>, program: readonly string[], bwrap: string, uid = process.getuid?.() ?? -1): WorkerSandbox {
  const mounts = sandboxMounts(place, env);
  const innerId = uid === 0 ? ROOT_INSIDE_AS : undefined;
  const spec = { mounts, cwd: place.worktree, emptyFile: emptyFileOf(place.stateDir), ...(innerId !== undefined ? { innerId } : {}) };
  return { argv: [...bwrapArgs(bwrap, spec), ...program], env: sandboxEnv(place, env), spec: { mounts, ...(innerId !== undefined ? { innerId } : {}) } };
}

/** Makes the voice directory 0700 (the daemon listens in it before any worker starts). */
export function ensureVoiceDir(stateDir: string): string {
  const dir = voiceDirOf(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}
