/**
 * The worker ports for a worker on another host (issue 28), around the local ones: a worker
 * whose intent names no host (or `local`) goes straight through. For a far worker:
 * - prepare: the brief directory (the daemon's copy) goes over ssh's stdin into its directory
 *   there, with the brief's own mentions of that directory rewritten to the far path; then the
 *   worktree and branch are made there by the same io/git code, run on that host (git-place.ts),
 *   and the base guard installed and the base tip recorded there too;
 * - seed: the agent profile's farSeed, the same files as its seed here (Claude Code's
 *   settings.local.json and ~/.claude.json trust, Codex's config.toml trust, Gemini CLI's
 *   settings, deny policy and trustedFolders.json), each read back over ssh, merged here and
 *   written there 0600 through a temp file renamed over it;
 *   one seed at a time per host, so two workers seeded at once cannot lose each other's entry;
 * - launch: the agent by name on the far PATH (its profile's farLaunchArgv), the caller's allow-listed environment without
 *   what describes this machine (HOME, USER, PATH, TMPDIR, XDG dirs, the agents' own homes), the
 *   far account's instead (an agent home given with --env is the person's word for there);
 *   the environment itself travels in a 0600 file there (remote-launch-env.ts);
 * - the report: read back over ssh into the daemon's copy, which every reader here uses.
 * The witness hooks are not installed there: `hand hook` cannot reach this daemon's socket from
 * another machine, so a far worker's screen alone decides.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { createWorktree, gitCommonDir } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import { agentProfile, type FarFiles } from '../../io/agent/profiles/index.ts';
import { launchSpec } from '../../io/agent/launch.ts';
import { readRemoteFile, remoteRealDir, writeRemoteFile } from '../../io/ssh/remote-files.ts';
import { farPath } from '../../io/ssh/far-path.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { WorkerPorts } from '../ports.ts';
import type { FarHost, FarHosts } from './far-hosts.ts';
import type { RealPorts } from './real-ports.ts';

/**
 * Variables that describe the daemon's machine and account, never the far one: its paths, and
 * the agents' homes here (CODEX_HOME, GEMINI_CLI_HOME, its trust file, CLAUDE_CONFIG_DIR).
 */
const THIS_MACHINE = /^(PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|XDG_[A-Z_]+|CODEX_HOME|GEMINI_CLI_HOME|GEMINI_CLI_TRUSTED_FOLDERS_PATH|CLAUDE_CONFIG_DIR)$/;

const isFar = (intent: Pick<WorkerIntent, 'host'>): intent is WorkerIntent & { host: string } => Boolean(intent.host && intent.host !== 'local');

/** Files under `dir` (relative paths), depth first. */
async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path, base)));
    else if (e.isFile()) out.push(relative(base, path));
  }
  return out;
}

export function createFarPorts(local: RealPorts, far: FarHosts, postureOf: (intent: { project: string }) => PermissionPosture): WorkerPorts {
  const hostOf = (intent: WorkerIntent & { host: string }): FarHost => far.get(intent.host);
  const farDirOf = (intent: WorkerIntent): string => {
    if (!intent.farDir) throw new RefusedError('far-dir-missing', `worker ${intent.id} runs on ${intent.host} but has no directory there recorded; dispatch it again.`, { id: intent.id });
    return intent.farDir;
  };
  /** The environment the agent starts with there: the caller's allow-listed one, the far account's places. */
  const farEnv = (intent: WorkerIntent & { host: string }, h: FarHost): Record<string, string> => {
    const caller = local.callerEnvOf(intent.id);
    const env = Object.fromEntries(Object.entries(caller.env).filter(([k]) => !THIS_MACHINE.test(k)));
    const there = { HOME: h.home, USER: h.target.user, LOGNAME: h.target.user, PATH: farPath(h.home) };
    return launchSpec(intent.agent, { callerEnv: { ...env, ...there }, envAdd: caller.add, posture: postureOf(intent) }).env;
  };

  /** The far report copied into the daemon's copy; false when the worker has written none there. */
  async function fetchReport(path: string, intent: WorkerIntent & { host: string }): Promise<boolean> {
    const text = await readRemoteFile(hostOf(intent).target, join(farDirOf(intent), 'report.md'));
    if (text === null) return false;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, text, { mode: 0o600 });
    return true;
  }

  return {
    ...local,
    async prepareWorktree(intent, signal) {
      if (!isFar(intent)) return local.prepareWorktree(intent, signal);
      const h = hostOf(intent);
      const localDir = dirname(intent.briefPath);
      const farDir = farDirOf(intent);
      for (const file of await filesUnder(localDir)) {
        if (file === 'report.md') continue;
        let text = await readFile(join(localDir, file), 'utf8');
        // The brief names its read-first copies by the daemon's path; the worker reads them there.
        if (file === 'brief.md') text = text.split(`${localDir}/`).join(`${farDir}/`);
        await writeRemoteFile(h.target, join(farDir, file), text);
      }
      // One far repository's worktree metadata steps one at a time, as here (git's own race).
      await onHost(h.target, () => createWorktree({ repo: intent.repo, id: intent.id, base: intent.base }, local.worktreeLane(`${intent.host}:${intent.repo}`)));
      // The base guard in the far repository's hooks and its tip recorded under that host, as here.
      await onHost(h.target, () => local.guardBase(intent));
    },
    async seedAgent(intent, signal) {
      if (!isFar(intent)) return local.seedAgent(intent, signal);
      const h = hostOf(intent);
      const files: FarFiles = {
        read: (path) => readRemoteFile(h.target, path),
        write: (path, text) => writeRemoteFile(h.target, path, text),
        realDir: (path) => remoteRealDir(h.target, path),
      };
      // One seed at a time per host (the daemon's keyed lane): each reads a shared config, merges
      // and writes it back, and two workers seeded at once must not lose each other's entry.
      await local.worktreeLane(`seed:${intent.host}`)(() => onHost(h.target, async () => agentProfile(intent.agent).farSeed({
        host: intent.host,
        worktree: intent.worktree,
        briefDir: farDirOf(intent),
        home: h.home,
        stateDir: h.stateDir,
        env: farEnv(intent, h),
        posture: postureOf(intent),
        gitCommonDir: (await gitCommonDir(intent.repo)) ?? undefined,
        files,
      })));
    },
    launchSpec(intent) {
      if (!isFar(intent)) return local.launchSpec(intent);
      const h = hostOf(intent);
      const where = { worktree: intent.worktree, briefDir: farDirOf(intent) };
      return { argv: agentProfile(intent.agent).farLaunchArgv(postureOf(intent), where), env: farEnv(intent, h) };
    },
    async reportExists(path, intent) {
      if (!intent || !isFar(intent)) return local.reportExists(path, intent);
      return fetchReport(path, intent);
    },
    async readReport(path, intent) {
      if (intent && isFar(intent)) await fetchReport(path, intent);
      return local.readReport ? local.readReport(path, intent) : { waitingOn: null };
    },
  };
}
