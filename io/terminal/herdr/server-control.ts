/**
 * The herdr server's lifecycle: its three-valued state, starting it (detached, so it outlives
 * us, with a clean environment and a config that makes worker panes wide), and stopping it.
 */
import { mkdirSync } from 'node:fs';
import { writePrivateFile } from '../../fs/private-files.ts';
import { join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import type { ServerState } from '../types.ts';
import { PARENT_SESSION_MARKERS } from '../worker-env.ts';
import { HerdrError, outcomeOf } from './envelope.ts';
import { herdrArgs, runHerdr, spawnServer, type HerdrContext } from './herdr-cli.ts';
import { herdrRequests, socketRequest, subscribe } from './herdr-socket.ts';
import { serverStateOf } from './server-state.ts';

export interface ServerStartOptions {
  /** Pane size (herdr's headless size). */
  cols: number;
  rows: number;
  /** Where the server config is written; without it the server uses its own. */
  stateDir?: string;
  /** How long to wait for the started server to answer; default 30 s. */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function herdrServerState(ctx: HerdrContext): Promise<ServerState> {
  return serverStateOf(await runHerdr(ctx, herdrArgs.statusJson()));
}

/** The environment a server we start gets: no parent-session markers (control-plane §2.7). */
function serverEnv(ctx: HerdrContext, opts: ServerStartOptions): Record<string, string> {
  const env = { ...ctx.env };
  for (const key of PARENT_SESSION_MARKERS) delete env[key];
  env.CLAUDE_CODE_CHILD_SESSION = '';
  env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION = '0';
  if (opts.stateDir) {
    mkdirSync(opts.stateDir, { recursive: true, mode: 0o700 });
    const config = join(opts.stateDir, 'herdr-config.toml');
    // Worker panes must be wide (narrow panes blind every classifier, §2.9), and a supervisor's
    // server must not fetch manifests or updates on its own.
    writePrivateFile(
      config,
      `[server]\nheadless_cols = ${opts.cols}\nheadless_rows = ${opts.rows}\n\n[update]\nmanifest_check = false\nversion_check = false\n`,
    );
    env.HERDR_CONFIG_PATH = config;
  }
  return env;
}

/** Starts `herdr server` unless one answers; resolves once it answers on the socket. */
export async function ensureHerdrServer(ctx: HerdrContext, socketPath: string, opts: ServerStartOptions): Promise<void> {
  const state = await herdrServerState(ctx);
  if (state.state === 'running') return;
  if (state.state === 'unknown') throw new RefusedError('herdr-unavailable', `cannot tell whether a herdr server runs: ${state.detail}`);
  const child = await spawnServer(ctx, serverEnv(ctx, opts));
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `herdr server exited (${signal ?? `code ${code}`})`;
  });
  child.unref();
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const ping = await socketRequest(socketPath, 'ping', {}, 2_000);
    if (ping.ok) return;
    if (exited) {
      // Lost a race with another starter: whoever serves the socket is fine.
      if ((await herdrServerState(ctx)).state === 'running') return;
      throw new RefusedError('herdr-unavailable', `${exited} before answering on ${socketPath}`);
    }
    if (Date.now() > deadline) throw new RefusedError('herdr-unavailable', `herdr server did not answer on ${socketPath} within the start timeout`);
    await sleep(100);
  }
}

/**
 * `herdr server stop` (ends every pane), then waits until the server is gone: an event stream
 * opened before the stop ends when the server lets go of its connections, and `status` then
 * confirms that nothing answers (asked again, every 100 ms, only if a server still answers then:
 * a herdr that refused the stream, or one that drops connections before its socket). Bounded by
 * 15 s in all.
 */
export async function stopHerdrServer(ctx: HerdrContext, socketPath: string): Promise<void> {
  let hungUp!: () => void;
  const gone = new Promise<void>((resolve) => (hungUp = resolve));
  const stream = await subscribe(socketPath, herdrRequests.serverGone(), () => {}, () => hungUp());
  const deadline = Date.now() + 15_000;
  let bound: NodeJS.Timeout | undefined;
  try {
    const stopped = outcomeOf(await runHerdr(ctx, herdrArgs.serverStop()));
    if (!stopped.ok && stopped.error.code !== 'server_not_running') {
      throw new HerdrError('server stop', stopped.error.code, stopped.error.message);
    }
    await Promise.race([gone, new Promise<void>((resolve) => (bound = setTimeout(resolve, 15_000)))]);
  } finally {
    clearTimeout(bound);
    stream.close();
  }
  while ((await herdrServerState(ctx)).state === 'running') {
    if (Date.now() > deadline) throw new RefusedError('herdr-unavailable', 'herdr server still running 15 s after `server stop`');
    await sleep(100);
  }
}
