/**
 * `hand hook <event>`: run by Claude Code's hooks inside a worker (io/agent/claude/hooks.ts).
 * Reads the JSON payload on stdin and hands it to the daemon. It must never hold up or fail
 * Claude Code: every step is bounded, it always exits 0, and when the daemon cannot be reached
 * (or does not answer in time) the note is appended to the 0600 queue the daemon drains at start
 * and, while it runs, within a second (queued, not lost).
 */
import { appendFileSync, closeSync, existsSync, fstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { homePaths, resolveHome } from '../../contract/home.ts';
import { hookFiredAt, hookQueuePath, noteOf, type HookNote } from '../../contract/hook-note.ts';
import { openPrivateAppend } from '../../io/fs/private-files.ts';
import { HOOK_HOME_ENV, HOOK_WORKER_ENV } from '../../io/agent/claude/hooks.ts';
import { HOOK_CAP_ENV } from '../../io/agent/claude/hook-capability.ts';
import { call, RemoteError } from '../client.ts';
import { cliEnv } from '../io.ts';

/** Whole budget for stdin and delivery; Claude Code's own timeout for the hook is 10 s. */
const STDIN_MS = 2000;
const DELIVER_MS = 2000;
export const MAX_PAYLOAD = 1 << 20;

/**
 * The payload, bounded in size and time, and never waiting on a stdin that stays open: it ends
 * as soon as what came parses as JSON (Claude Code writes one object), at MAX_PAYLOAD bytes, or
 * at `ms`, whichever is first. A hook that waited for the end of stdin lingered while a writer
 * held the pipe open (issue 25 #5).
 */
export function readStdin(stream: NodeJS.ReadableStream, ms: number, maxBytes = MAX_PAYLOAD): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      // stop reading: an open pipe must not keep this process (or its buffer) alive
      stream.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, ms);
    const onData = (c: Buffer) => {
      const room = maxBytes - size;
      chunks.push(c.length > room ? c.subarray(0, room) : c);
      size += Math.min(c.length, room);
      if (size >= maxBytes || completeJson(chunks)) done();
    };
    stream.on('data', onData);
    stream.once('end', done);
    stream.once('error', done);
  });
}

/** True when the bytes so far are one whole JSON value (a payload ends with its closing brace). */
function completeJson(chunks: Buffer[]): boolean {
  const last = chunks.at(-1);
  if (!last || !/[}\]]\s*$/.test(last.subarray(-16).toString('utf8'))) return false;
  try {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** Only a kingshand state directory takes the queue: a hook run with any other HAND_HOME wrote a queue file there (issue 43). */
function queue(home: string, note: HookNote): boolean {
  if (!existsSync(home) || !existsSync(join(home, 'fleet.db'))) return false;
  appendToQueue(hookQueuePath(home), `${JSON.stringify(note)}\n`);
  return true;
}

/**
 * Appends one line to the queue at `path`, and again to the queue there now when the file it
 * wrote to was taken away meanwhile: a running daemon drains the queue by renaming it first
 * (daemon/fleet/hook-handlers.ts), and a line written just after that rename may come after its
 * read. Twice at most: a note read twice is the same word again, a note lost is a word never said.
 */
export function appendToQueue(path: string, line: string, open: (path: string) => number = openPrivateAppend): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    const fd = open(path);
    let kept: boolean;
    try {
      appendFileSync(fd, line);
      const wrote = fstatSync(fd);
      const now = statSync(path, { throwIfNoEntry: false });
      kept = now !== undefined && now.ino === wrote.ino && now.dev === wrote.dev;
    } finally {
      closeSync(fd);
    }
    if (kept) return;
  }
}

export interface HookOutcome {
  delivered: boolean;
  queued: boolean;
  skipped?: string;
}

/** `startedAt`: when this hook's own process started (the CLI passes it; in process it is unknown). */
export async function runHook(event: string, opts: { home?: string; env?: NodeJS.ProcessEnv; stdin?: NodeJS.ReadableStream; payload?: string; startedAt?: number } = {}): Promise<HookOutcome> {
  const env = opts.env ?? cliEnv();
  const id = env[HOOK_WORKER_ENV];
  // Not launched by a daemon (a person's own Claude Code with these settings copied): nothing to tell.
  if (!id) return { delivered: false, queued: false, skipped: `${HOOK_WORKER_ENV} is not set` };
  // An argument payload (Codex's notify) is bounded like stdin's; stdin is then not read at all.
  const raw = opts.payload !== undefined ? opts.payload.slice(0, MAX_PAYLOAD) : await readStdin(opts.stdin ?? process.stdin, STDIN_MS);
  let payload: unknown = null;
  try {
    payload = JSON.parse(raw);
  } catch {
    // An unreadable payload still says which hook ran.
  }
  const note = noteOf(id, event, payload, hookFiredAt(Date.now(), payload, opts.startedAt));
  // The capability the daemon gave this worker at launch: without it the daemon refuses the note.
  const cap = env[HOOK_CAP_ENV];
  if (cap) note.cap = cap;
  const home = resolveHome(opts.home ?? env[HOOK_HOME_ENV], env);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), DELIVER_MS);
  try {
    // The voice socket: the one part of the state directory a sandboxed worker sees.
    const paths = homePaths(home);
    await call({ ...paths, socket: paths.voiceSocket }, 'hook', { note }, { autostart: false, signal: abort.signal });
    return { delivered: true, queued: false };
  } catch (err) {
    // The daemon heard it and said no (a worker it no longer has): replaying it later would not help.
    if (err instanceof RemoteError) return { delivered: false, queued: false, skipped: err.message };
    return { delivered: false, queued: queue(home, note) };
  } finally {
    clearTimeout(timer);
  }
}
