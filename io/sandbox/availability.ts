/**
 * Whether kingshand's worker sandbox can be built on this machine: bubblewrap on the daemon's
 * PATH, and a trial sandbox of the same shape as a worker's (a user namespace, a process
 * namespace, no capabilities) that really starts. What stops it, and how to fix it, in a person's
 * words: bubblewrap missing; user namespaces off (`kernel.unprivileged_userns_clone=0` on older
 * Debian, `user.max_user_namespaces=0`); AppArmor's restriction of unprivileged user namespaces
 * (Ubuntu 23.10 and later: `kernel.apparmor_restrict_unprivileged_userns=1`), which needs a
 * profile for bwrap.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_INSIDE_AS } from './worker-sandbox.ts';

export type SandboxAvailability =
  | { ok: true; bwrap: string; version: string | null }
  | { ok: false; reason: string; fix: string; bwrap: string | null };

/** `HAND_SANDBOX=off` in the daemon's environment: no worker is sandboxed (posture off is then refused). */
export const SANDBOX_SWITCH_ENV = 'HAND_SANDBOX';

function onPath(program: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(':')) {
    if (!dir) continue;
    const p = join(dir, program);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

function readSysctl(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Why user namespaces are unavailable, read from the kernel's switches, or null when none says so. */
function userNamespaceBlocker(): { reason: string; fix: string } | null {
  if (readSysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return { reason: 'unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone=0)', fix: 'sudo sysctl -w kernel.unprivileged_userns_clone=1 (and in /etc/sysctl.d/ to keep it)' };
  }
  if (readSysctl('/proc/sys/user/max_user_namespaces') === '0') {
    return { reason: 'user namespaces are turned off (user.max_user_namespaces=0)', fix: 'sudo sysctl -w user.max_user_namespaces=15000 (and in /etc/sysctl.d/ to keep it)' };
  }
  if (readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return {
      reason: "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and bwrap has no profile that allows them",
      fix: 'add an AppArmor profile for bwrap that allows userns (Ubuntu ships one as /etc/apparmor.d/bwrap-userns-restrict in apparmor 4.0+: sudo apt-get install -y apparmor-profiles), or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    };
  }
  return null;
}

/**
 * Asks the machine (a trial sandbox, ~10 ms). `env`: the daemon's environment (PATH, HAND_BWRAP
 * for another bubblewrap, HAND_SANDBOX=off). Asked anew at each call: probeSandboxOnce keeps the answer.
 */
export function probeSandbox(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform, uid = process.getuid?.() ?? -1): SandboxAvailability {
  if (env[SANDBOX_SWITCH_ENV] === 'off') {
    return { ok: false, bwrap: null, reason: `it is turned off for this daemon (${SANDBOX_SWITCH_ENV}=off in its environment)`, fix: `start the daemon without ${SANDBOX_SWITCH_ENV}=off (hand daemon stop, then any hand command)` };
  }
  if (platform !== 'linux') {
    return { ok: false, bwrap: null, reason: `kingshand's worker sandbox is built with bubblewrap, which runs on Linux only (this is ${platform})`, fix: 'run workers on a Linux host (hand host add), or use posture edits or ask so a person reads each command' };
  }
  const bwrap = env.HAND_BWRAP || onPath('bwrap', env.PATH);
  if (!bwrap) {
    return { ok: false, bwrap: null, reason: 'bubblewrap (bwrap) is not on the daemon\'s PATH', fix: 'sudo apt-get install -y bubblewrap (Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)' };
  }
  const ids = uid === 0 ? ['--uid', String(ROOT_INSIDE_AS), '--gid', String(ROOT_INSIDE_AS)] : [];
  const trial = spawnSync(bwrap, ['--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', ...ids, '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', '/bin/sh', '-c', 'exit 0'], { encoding: 'utf8', timeout: 10_000 });
  if (trial.status !== 0) {
    const said = `${trial.stderr ?? ''}${trial.error ? String(trial.error) : ''}`.trim().split('\n')[0] ?? '';
    const blocker = userNamespaceBlocker();
    return {
      ok: false,
      bwrap,
      reason: `a trial sandbox did not start${said ? ` (bwrap: ${said.slice(0, 200)})` : ''}${blocker ? `: ${blocker.reason}` : ''}`,
      fix: blocker?.fix ?? 'check that bwrap can make a user namespace here (bwrap --unshare-user --ro-bind / / true); in a container, run it with user namespaces allowed (docker: --security-opt seccomp=unconfined or a profile allowing clone/unshare)',
    };
  }
  const v = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  const version = /bubblewrap\s+(\S+)/.exec(v.stdout ?? '')?.[1] ?? null;
  return { ok: true, bwrap, version };
}

const answers = new Map<string, SandboxAvailability>();

/**
 * probeSandbox, asked once a process for the same switch, bubblewrap and PATH: the daemon keeps
 * one answer, and a process hosting many (the test suite's) need not fork for a trial sandbox each.
 */
export function probeSandboxOnce(env: Record<string, string | undefined> = process.env): SandboxAvailability {
  const key = [env[SANDBOX_SWITCH_ENV] ?? '', env.HAND_BWRAP ?? '', env.PATH ?? ''].join('\0');
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = probeSandbox(env)));
  return answer;
}
