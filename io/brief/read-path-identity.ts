/**
 * The deny list by what a file IS, not what its path says (issue 24 item 4). A path check alone let
 * a hard link to ~/.ssh/id_ed25519 into a worker's read-first/: a hard link, a bind mount and a
 * `/proc/self/root/…` path all name the same file (device and inode) under another path. So the
 * denied locations that exist are walked (bounded) and their (device, inode) pairs collected; a
 * read path whose file is one of them is refused. A credential somewhere unexpected is caught by
 * its shape: the first KB of the file is matched against the forms keys and tokens take.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SECRET_DIR_NAMES, SYSTEM_SECRETS, homeSecrets, type DenyContext } from './read-path-deny.ts';

/** How much of a denied tree is walked: a home's .ssh or .aws is tens of files, never thousands. */
const MAX_ENTRIES = 5000;
const MAX_DEPTH = 6;
/** How much of a read path is read for its shape. */
const SHAPE_BYTES = 1024;

const idOf = (st: { dev: number | bigint; ino: number | bigint }): string => `${st.dev}:${st.ino}`;

/** (device, inode) → the denied location it was found at, for every file under the denied places. */
function deniedIdentities(ctx: DenyContext): Map<string, string> {
  const ids = new Map<string, string>();
  let budget = MAX_ENTRIES;
  const walk = (path: string, label: string, depth: number, skip: readonly string[] = []): void => {
    if (budget-- <= 0 || skip.includes(path)) return;
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // not there, or unreadable: nothing to compare with
    }
    if (st.isSymbolicLink()) return; // the walk names real files; a link's target is walked where it lives
    if (st.isFile()) {
      if (!ids.has(idOf(st))) ids.set(idOf(st), label);
      return;
    }
    if (!st.isDirectory() || depth >= MAX_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) walk(join(path, name), label, depth + 1, skip);
  };
  const homes = ctx.homes?.length ? ctx.homes : [homedir()];
  for (const home of homes) {
    for (const name of SECRET_DIR_NAMES) walk(join(home, name), join(home, name), 0);
    for (const secret of homeSecrets(home)) walk(secret, secret, 0);
  }
  for (const secret of SYSTEM_SECRETS) walk(secret, secret, 0);
  if (ctx.stateDir) {
    const state = resolve(ctx.stateDir);
    // Briefs, reports and standing files are meant to be shared; everything else there is not.
    walk(state, `kingshand's own state (${state})`, 0, [join(state, 'workers'), join(state, 'data')]);
  }
  return ids;
}

/** Why the file at `realPath` is a denied file under another name, or null. */
export function deniedByIdentity(realPath: string, ctx: DenyContext = {}): string | null {
  let st;
  try {
    st = statSync(realPath);
  } catch {
    return null;
  }
  const where = deniedIdentities(ctx).get(idOf(st));
  return where ? `it is the same file (device ${st.dev}, inode ${st.ino}) as one under ${where} — a hard link, bind mount or /proc path to a denied file` : null;
}

/** The shapes credentials take, each with the name the refusal gives it. */
const SHAPES: readonly { name: string; re: RegExp }[] = [
  { name: 'a PEM private key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/ },
  { name: 'a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_)', re: /\bgh[pousr]_[A-Za-z0-9]{20,}/ },
  { name: 'a GitHub fine-grained token', re: /\bgithub_pat_[A-Za-z0-9_]{20,}/ },
  { name: 'an npm token', re: /\bnpm_[A-Za-z0-9]{30,}|_authToken\s*=/ },
  { name: 'an AWS access key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|aws_secret_access_key\s*=/i },
  { name: 'an Anthropic key or OAuth token', re: /\bsk-ant-[a-z]{2,4}\d{0,2}-[A-Za-z0-9_-]{20,}/ },
  { name: 'an OAuth token', re: /"(?:accessToken|refreshToken|access_token|refresh_token)"\s*:\s*"[^"]{8,}"|\boauth_token\s*:\s*\S{8,}/ },
];

/** Why the first KB of `realPath` looks like a credential, or null. */
export function deniedByShape(realPath: string): string | null {
  let head = '';
  try {
    // Never waits on a FIFO swapped in after the regular-file check (a read path may lie in a worker's worktree).
    const fd = openSync(realPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    try {
      const buf = Buffer.alloc(SHAPE_BYTES);
      head = buf.subarray(0, readSync(fd, buf, 0, SHAPE_BYTES, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null; // unreadable here: the copy will fail and say so
  }
  const hit = SHAPES.find((s) => s.re.test(head));
  return hit ? `its first ${SHAPE_BYTES} bytes hold what looks like ${hit.name}` : null;
}
