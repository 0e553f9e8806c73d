/**
 * Whether a session file is one worker's: read as a stranger's file (io/fs/untrusted-file.ts:
 * never through a link, a regular file of the daemon's user, capped, bounded in time), it names
 * the session its file name says (and the one a hook reported, when one did), it ran in the
 * worker's worktree, and it ends on a whole record (a file cut short is not resumed: the agent
 * would resume part of a conversation, or refuse it on screen where nobody reads).
 */
import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';
import { readUntrustedFile } from '../../fs/untrusted-file.ts';
import type { SessionFormat, SessionProof } from './types.ts';

/** The head read for a session's identity (Claude Code's first lines may carry a large attachment). */
const HEAD_BYTES = 512 * 1024;
/** The tail read for a whole last record. */
const TAIL_BYTES = 256 * 1024;

const no = (why: Extract<SessionProof, { ok: false }>['why'], detail: string): SessionProof => ({ ok: false, why, detail });

/** Proves `file` is the session of the worker in `worktree` (and is `sessionId`, when given). */
export async function proveSession(format: SessionFormat, file: string, worktree: string, sessionId?: string): Promise<SessionProof> {
  const head = await readUntrustedFile(file, { maxBytes: HEAD_BYTES });
  if (head.kind === 'absent') return no('missing', `the ${format.label} session file ${file} is not there any more`);
  if (head.kind === 'refused') return no('refused', `the ${format.label} session file was refused: ${head.reason}`);
  if (head.size === 0) return no('truncated', `the ${format.label} session file ${basename(file)} is empty`);
  const identity = format.identity(head.text, file);
  if (!identity) return no('truncated', `the ${format.label} session file ${basename(file)} does not begin with a session record (cut short, or not a session)`);
  if (sessionId !== undefined && identity.sessionId !== sessionId) {
    return no('another-worktree', `the ${format.label} session file ${basename(file)} is session ${identity.sessionId}, not ${sessionId}`);
  }
  if (identity.cwd === null && identity.projectHash === undefined) {
    return no('truncated', `the ${format.label} session file ${basename(file)} holds no conversation yet (no record says where it ran)`);
  }
  if (!format.ranIn(identity, worktree)) {
    return no('another-worktree', `the ${format.label} session ${identity.sessionId} ran in ${identity.cwd ?? `another directory (project hash ${identity.projectHash})`}, not in this worker's worktree ${worktree}`);
  }
  const tail = head.truncated ? await readUntrustedFile(file, { maxBytes: TAIL_BYTES, offset: Math.max(0, head.size - TAIL_BYTES) }) : head;
  if (tail.kind !== 'read') return no(tail.kind === 'absent' ? 'missing' : 'refused', `the ${format.label} session file ${basename(file)} could not be read to its end${tail.kind === 'refused' ? `: ${tail.reason}` : ''}`);
  if (!endsOnWholeRecord(tail.text)) return no('truncated', `the ${format.label} session file ${basename(file)} ends in the middle of a record (cut short)`);
  return { ok: true, sessionId: identity.sessionId, file };
}

/** The last line is a whole JSON record and the file ends with its newline. */
function endsOnWholeRecord(text: string): boolean {
  if (!text.endsWith('\n')) return false;
  const lines = text.split('\n');
  const last = lines.at(-2);
  if (last === undefined || last.trim() === '') return true;
  try {
    JSON.parse(last);
    return true;
  } catch {
    return false;
  }
}

/**
 * The worker's session, looked for among its config directory's session files: the one `hint`
 * names (a hook's word, still proved by the file), else the newest one written since `since` that
 * ran in the worktree. Null when none proves to be its.
 */
export async function findSession(format: SessionFormat, configDir: string, worktree: string, o: { hint?: string; since?: number; max?: number } = {}): Promise<Extract<SessionProof, { ok: true }> | null> {
  const files = await format.candidates(configDir, worktree, o.max ?? 50);
  for (const file of files) {
    if (o.hint !== undefined && !basename(file).includes(o.hint.slice(0, 8))) continue;
    if (o.hint === undefined && o.since !== undefined) {
      const st = await lstat(file).catch(() => null);
      if (!st || st.mtimeMs < o.since) continue;
    }
    const proof = await proveSession(format, file, worktree, o.hint);
    if (proof.ok) return proof;
  }
  return null;
}
