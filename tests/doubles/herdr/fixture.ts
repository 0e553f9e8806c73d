/**
 * Test plumbing for the herdr double: a private temp dir holding the socket, a HOME, and a `herdr`
 * link to the double, so every process it starts carries the `kh-test-` prefix in its command
 * line (the global teardown then proves no server outlived its test).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../../helpers/temp.ts';

export const DOUBLE_PATH = resolve(import.meta.dirname, 'herdr.mjs');
export const MOCK_AGENT = resolve(import.meta.dirname, '../../../bin/mock-agent.js');

export interface HerdrDouble {
  dir: string;
  bin: string;
  socketPath: string;
  /** Environment for herdr invocations: private HOME/XDG dirs, no inherited herdr settings. */
  env: Record<string, string>;
  /** A PATH directory tests can put shims (e.g. a `claude`) into. */
  binDir: string;
  /** Options for createHerdrHost against this double (the fixture itself never imports the adapter). */
  hostOptions(): { herdrBin: string; socketPath: string; env: Record<string, string>; stateDir: string };
  /** Runs the double's CLI directly: { code, stdout, stderr }. */
  cli(args: string[], extraEnv?: Record<string, string>): { code: number; stdout: string; stderr: string };
  /** Stops the server (if any) and removes the dir. */
  cleanup(): Promise<void>;
}

export function baseEnv(dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('HERDR_')) env[k] = v;
  }
  return { ...env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') };
}

export function makeHerdrDouble(label = 'herdr'): HerdrDouble {
  const tmp = makeTempDir(label);
  const dir = tmp.path;
  const binDir = join(dir, 'bin');
  mkdirSync(binDir);
  const bin = join(binDir, 'herdr');
  symlinkSync(DOUBLE_PATH, bin);
  const socketPath = join(dir, 'herdr.sock');
  const env = { ...baseEnv(dir), HERDR_SOCKET_PATH: socketPath };
  const double: HerdrDouble = {
    dir,
    bin,
    socketPath,
    env,
    binDir,
    hostOptions: () => ({ herdrBin: bin, socketPath, env, stateDir: join(dir, 'state') }),
    cli(args, extraEnv = {}) {
      try {
        const stdout = execFileSync(bin, args, { env: { ...env, ...extraEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return { code: 0, stdout, stderr: '' };
      } catch (err) {
        const e = err as { status?: number; stdout?: string; stderr?: string };
        return { code: e.status ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      }
    },
    async cleanup() {
      // `server.stop` hangs up every pane; the server removes its socket as it leaves. Asked over
      // the socket (no CLI process), and its leaving is watched, not polled; bounded by 15 s.
      if (existsSync(socketPath)) {
        const removed = socketRemoved(dir, socketPath, 15_000);
        if (await askServerToStop(socketPath)) await removed.done;
        removed.cancel();
      }
      tmp.cleanup();
    },
  };
  return double;
}

/** Sends `server.stop`; false when nobody answers (no server: nothing to wait for). */
function askServerToStop(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    const finish = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.on('connect', () => socket.write(`${JSON.stringify({ id: 'fixture:stop', method: 'server.stop', params: {} })}\n`));
    socket.on('data', () => finish(true));
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
  });
}

/** Resolves `done` once `path` no longer exists (watching its directory), or after `timeoutMs`. */
function socketRemoved(dir: string, path: string, timeoutMs: number): { done: Promise<void>; cancel(): void } {
  let cancel = () => {};
  const done = new Promise<void>((resolve) => {
    const watcher = watch(dir, () => {
      if (!existsSync(path)) finish();
    });
    const timer = setTimeout(finish, timeoutMs);
    function finish(): void {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
    cancel = finish;
    if (!existsSync(path)) finish();
  });
  return { done, cancel };
}

/**
 * A `claude` on PATH that is really the mock agent (herdr identifies agents by process name, and
 * `agent start --kind claude` types `claude`). `extraArgs` are appended to what herdr passes.
 */
export function installClaudeShim(binDir: string, extraArgs: string[] = []): void {
  const path = join(binDir, 'claude');
  writeFileSync(
    path,
    `#!/usr/bin/env node\nprocess.argv.push(...${JSON.stringify(extraArgs)});\nimport(${JSON.stringify(pathToFileURL(MOCK_AGENT).href)});\n`,
  );
  chmodSync(path, 0o755);
}

/** A `claude` that dies at once with `code`, before it could ever become interactive. */
export function installFailingClaude(binDir: string, code: number): void {
  const path = join(binDir, 'claude');
  writeFileSync(path, `#!/bin/sh\nexit ${code}\n`);
  chmodSync(path, 0o755);
}
