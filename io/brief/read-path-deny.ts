/**
 * Files a worker is never handed through `--read-path`: each is COPIED into the worker's folder
 * and kept there, so a slip (`--read-path ~/.ssh/id_rsa`) would put a private key where an agent
 * with bypassed permissions reads everything. The list follows the permissions posture's deny
 * rules (any .ssh directory, cloud credentials) and adds system secrets and kingshand's own state.
 * Checked on the path as given and on its real path, so a symlink leads nowhere around it; by
 * device and inode and by content shape in read-path-identity.ts.
 */
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';

/** A path component that marks a secret wherever it appears. */
export const SECRET_DIR_NAMES = ['.ssh', '.gnupg', '.aws'];

/** Credential files by location (issue 24: each of these was copied into a worker's read-first/). */
export function homeSecrets(home: string): string[] {
  return [
    join(home, '.claude', '.credentials.json'),
    join(home, '.config', 'gh'),
    join(home, '.config', 'hub'),
    join(home, '.npmrc'),
    join(home, '.yarnrc.yml'),
    join(home, '.pypirc'),
    join(home, '.cargo', 'credentials.toml'),
    join(home, '.cargo', 'credentials'),
    join(home, '.config', 'gcloud'),
    join(home, '.azure'),
    join(home, '.kube'),
    join(home, '.docker', 'config.json'),
    join(home, '.netrc'),
    join(home, '.git-credentials'),
  ];
}

export const SYSTEM_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh'];

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

export interface DenyContext {
  /** Home directories whose credentials are denied (default: the OS's idea of this process's). */
  homes?: readonly string[];
  /** kingshand's state directory: its database, logs, sockets and lock are never handed out. */
  stateDir?: string;
}

/** Why `path` may not be handed to a worker, or null. */
export function deniedReadPath(path: string, ctx: DenyContext = {}): string | null {
  const abs = resolve(path);
  const parts = abs.split(sep);
  const secretDir = SECRET_DIR_NAMES.find((name) => parts.includes(name));
  if (secretDir) return `it is inside a ${secretDir} directory (keys and credentials)`;
  const homes = ctx.homes?.length ? ctx.homes : [homedir()];
  for (const secret of [...homes.flatMap(homeSecrets), ...SYSTEM_SECRETS]) {
    if (within(abs, secret)) return `it is under ${secret} (credentials)`;
  }
  if (ctx.stateDir) {
    const state = resolve(ctx.stateDir);
    // Briefs, reports and standing files below workers/ and data/ are meant to be shared.
    if (within(abs, state) && !within(abs, join(state, 'workers')) && !within(abs, join(state, 'data'))) {
      return `it is kingshand's own state (${state}: database, logs, sockets)`;
    }
  }
  return null;
}
