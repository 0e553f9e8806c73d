/**
 * What a delivery posture needs before a repository is registered under it (workflow §2.3,
 * §8.1): a push-capable posture (direct-PR, no-mistakes, no-mistakes-prod-only) needs an
 * `origin` remote and `gh` on PATH, logged in when that can be told offline; a no-mistakes
 * posture also needs the no-mistakes binary. Each refusal names the command that fixes it.
 * "Could not tell" (an unreadable gh config) never refuses: only a definite no does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import { findExecutable, GH_INSTALL_HINT } from './landing-pr.ts';
import { runGit } from './run-git.ts';

export const PUSH_CAPABLE = new Set(['direct-PR', 'no-mistakes', 'no-mistakes-prod-only']);
export const NO_MISTAKES_POSTURES = new Set(['no-mistakes', 'no-mistakes-prod-only']);

export const GH_INSTALL = 'sudo apt-get install gh   # macOS: brew install gh; Windows: winget install --id GitHub.cli — then: gh auth login';
export const NO_MISTAKES_INSTALL =
  'download the latest release of github.com/kunchenguid/no-mistakes (verify it against the release checksums.txt) and put no-mistakes on PATH — not the npm package of that name';

export async function originUrl(repo: string): Promise<string | null> {
  const r = await runGit(repo, ['remote', 'get-url', 'origin']);
  return r.exitCode === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/**
 * Is gh logged in, told without the network: a GH_TOKEN/GITHUB_TOKEN, or a host entry in gh's
 * hosts.yml (the token itself may live in the keyring). 'unknown' when the file cannot be read.
 */
export function ghLoggedIn(env: Record<string, string | undefined>): 'yes' | 'no' | 'unknown' {
  if (env.GH_TOKEN || env.GITHUB_TOKEN || env.GH_ENTERPRISE_TOKEN) return 'yes';
  const dir = env.GH_CONFIG_DIR || (env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, 'gh') : join(env.HOME || homedir(), '.config', 'gh'));
  const hosts = join(dir, 'hosts.yml');
  if (!existsSync(hosts)) return 'no';
  try {
    return hostsYmlLoggedIn(readFileSync(hosts, 'utf8')) ? 'yes' : 'no';
  } catch {
    return 'unknown';
  }
}

/** gh's hosts.yml names at least one host (the token itself may live in the keyring). */
export function hostsYmlLoggedIn(text: string): boolean {
  return /^[^\s#][^:]*:/m.test(text);
}

export async function registrationProblem(posture: string, repo: string, env: Record<string, string | undefined>): Promise<RefusedError | null> {
  if (!PUSH_CAPABLE.has(posture)) return null;
  if (!(await originUrl(repo))) {
    return new RefusedError(
      'posture-needs-origin',
      `${posture} pushes to a remote, but ${repo} has no origin remote. Add it (git -C ${repo} remote add origin <url>), or register it as local-only (--posture local-only).`,
      { repo, posture },
    );
  }
  if (!findExecutable('gh', env)) {
    return new RefusedError('posture-needs-gh', `${posture} opens pull requests with the GitHub CLI, and gh is not on PATH (searched PATH ${env.PATH ?? ''}). ${GH_INSTALL_HINT.replace(', then approve again', ', then annex again')}`, { posture, fix: GH_INSTALL, path: env.PATH ?? '' });
  }
  if (ghLoggedIn(env) === 'no') {
    return new RefusedError('posture-needs-gh-login', `${posture} opens pull requests with gh, which is not logged in. Run gh auth login, then annex again.`, { posture, fix: 'gh auth login' });
  }
  if (NO_MISTAKES_POSTURES.has(posture) && !findExecutable('no-mistakes', env)) {
    return new RefusedError('posture-needs-no-mistakes', `${posture} reviews work with the no-mistakes gate, which is not on PATH (searched PATH ${env.PATH ?? ''}). Install it: ${NO_MISTAKES_INSTALL}. Or register as direct-PR.`, {
      posture,
      fix: NO_MISTAKES_INSTALL,
    });
  }
  return null;
}
