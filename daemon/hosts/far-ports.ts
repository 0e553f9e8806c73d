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
 * - the report: read back over ssh into the daemon's copy, which every reader here uses. It is
 *   the far worker's file (issue 37): read there without following a link, a regular file of the
 *   far account's own, capped (readRemoteUntrusted); a refused one is refused here too, with why.
 *   The far worker writes only its report directory there (out/); the daemon's files in its brief
 *   directory there are written as files of their own (writeRemoteOwn), never through a link.
 * The witness hooks are not installed there: `hand hook` cannot reach this daemon's socket from
 * another machine, so a far worker's screen alone decides.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { createWorktree, gitCommonDir } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import { agentProfile, type FarFiles, type WorkerPlace } from '../../io/agent/profiles/index.ts';
import { launchSpec } from '../../io/agent/launch.ts';
import { makeRemoteDir, readRemoteFile, readRemoteUntrusted, remoteRealDir, writeRemoteFile, writeRemoteOwn } from '../../io/ssh/remote-files.ts';
import { createFileAtomically } from '../../io/fs/atomic-create.ts';
import { makePrivateDir } from '../../io/fs/private-files.ts';
import { readUntrustedFile, RefusedFileError } from '../../io/fs/untrusted-file.ts';
import { REPORT_READ_CAP, reportRelativePath, workerDirsOf } from '../../io/brief/worker-layout.ts';
import { farPath } from '../../io/ssh/far-path.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { WorkerPorts } from '../../io/ports/worker-ports.ts';
import type { FarHost, FarHosts } from './far-hosts.ts';
import type { RealPorts } from '../../io/ports/real-ports.ts';

/**
 * Variables that describe the daemon's machine and account, never the far one: its paths, and
 * the agents' homes here (CODEX_HOME, GEMINI_CLI_HOME, its trust file, CLAUDE_CONFIG_DIR, QWEN_HOME
 * and Qwen Code's settings and trust files).
 */
const THIS_MACHINE = /^(PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|XDG_[A-Z_]+|CODEX_HOME|GEMINI_CLI_HOME|GEMINI_CLI_TRUSTED_FOLDERS_PATH|CLAUDE_CONFIG_DIR|QWEN_HOME|QWEN_CODE_SYSTEM_SETTINGS_PATH|QWEN_CODE_SYSTEM_DEFAULTS_PATH|QWEN_CODE_TRUSTED_FOLDERS_PATH)$/;

const isFar = (intent: Pick<WorkerIntent, 'host'>): intent is WorkerIntent & { host: string } => Boolean(intent.host && intent.host !== 'local');

/** Regular files under `dir` (relative paths), depth first, but none under `skip` (the report directory: the worker's, not sent). */
async function filesUnder(dir: string, skip: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (path === skip) continue;
    // A link is neither a directory nor a file here (Dirent does not follow it): never sent.
    if (e.isDirectory()) out.push(...(await filesUnder(path, skip, base)));
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
  const farEnv = (intent: WorkerIntent & { host: string }, h: FarHost, where?: WorkerPlace): Record<string, string> => {
    const caller = local.callerEnvOf(intent.id);
    const env = Object.fromEntries(Object.entries(caller.env).filter(([k]) => !THIS_MACHINE.test(k)));
    const there = { HOME: h.home, USER: h.target.user, LOGNAME: h.target.user, PATH: farPath(h.home) };
    // `where`: the worker's places there, for an agent that is told them at launch (OpenCode's rules).
    return launchSpec(intent.agent, { callerEnv: { ...env, ...there }, envAdd: caller.add, posture: postureOf(intent), ...(where ? { where } : {}) }).env;
  };

  /** The worker's places there: its brief directory, and the report directory inside it as here (out/, or the brief directory for an old worker). */
  const farPlacesOf = (intent: WorkerIntent): { briefDir: string; reportDir: string; reportPath: string } => {
    const briefDir = farDirOf(intent);
    const reportPath = `${briefDir}/${reportRelativePath(intent)}`;
    return { briefDir, reportDir: reportPath.slice(0, reportPath.lastIndexOf('/')), reportPath };
  };

  /** The far report copied into the daemon's copy; false when the worker has written none there; a refusal thrown with why. */
  async function fetchReport(path: string, intent: WorkerIntent & { host: string }): Promise<boolean> {
    const r = await readRemoteUntrusted(hostOf(intent).target, farPlacesOf(intent).reportPath, REPORT_READ_CAP);
    if (r.kind === 'absent') return false;
    if (r.kind === 'refused') throw new RefusedFileError(`${intent.host}:${farPlacesOf(intent).reportPath}`, 'not-regular', r.reason);
    makePrivateDir(workerDirsOf(intent).reportDir);
    createFileAtomically(path, r.text);
    return true;
  }

  return {
    ...local,
    async prepareWorktree(intent, signal) {
      if (!isFar(intent)) return local.prepareWorktree(intent, signal);
      const h = hostOf(intent);
      const { briefDir: localDir, reportDir: localReports } = workerDirsOf(intent);
      const farDir = farDirOf(intent);
      for (const file of await filesUnder(localDir, localReports)) {
        // A worker of the old layout has its reports in the brief directory itself: never sent back.
        if (localReports === localDir && /^report(-before-relaunch-\d+)?\.md$/.test(file)) continue;
        // The daemon's own files (it wrote them), read as any file under a worker's directory is.
        const r = await readUntrustedFile(join(localDir, file), { maxBytes: 64 << 20 });
        if (r.kind !== 'read') continue;
        let text = r.text;
        // The brief names its read-first copies by the daemon's path; the worker reads them there.
        if (file === 'brief.md') text = text.split(`${localDir}/`).join(`${farDir}/`);
        await writeRemoteOwn(h.target, join(farDir, file), text);
      }
      // The one place there the far worker writes.
      await makeRemoteDir(h.target, farPlacesOf(intent).reportDir);
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
        writeOwn: (path, text) => writeRemoteOwn(h.target, path, text),
        readUntrusted: async (path) => {
          const r = await readRemoteUntrusted(h.target, path, 1 << 20);
          if (r.kind === 'absent') return null;
          if (r.kind === 'refused') throw new RefusedError('far-file-refused', `${intent.host}:${path} was refused: ${r.reason}; it was left untouched. Remove it there, then dispatch or relaunch again.`, { host: intent.host, path });
          if (r.truncated) throw new RefusedError('far-file-refused', `${intent.host}:${path} is over 1 MiB; it was left untouched. Remove it there, then dispatch or relaunch again.`, { host: intent.host, path });
          return r.text;
        },
        realDir: (path) => remoteRealDir(h.target, path),
      };
      // One seed at a time per host (the daemon's keyed lane): each reads a shared config, merges
      // and writes it back, and two workers seeded at once must not lose each other's entry.
      await local.worktreeLane(`seed:${intent.host}`)(() => onHost(h.target, async () => agentProfile(intent.agent).farSeed({
        host: intent.host,
        worktree: intent.worktree,
        briefDir: farDirOf(intent),
        reportDir: farPlacesOf(intent).reportDir,
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
      const { briefDir, reportDir } = farPlacesOf(intent);
      const where = { worktree: intent.worktree, briefDir, reportDir, stateDir: h.stateDir };
      return { argv: agentProfile(intent.agent).farLaunchArgv(postureOf(intent), where), env: farEnv(intent, h, where) };
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
