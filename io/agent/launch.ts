/**
 * How to start each agent: argv and environment, never a shell string (control-plane §2.8:
 * no arguments beyond the program itself; the first prompt is typed into the live box).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { agentProfile, type WorkerPlace } from './profiles/index.ts';
import { KINGSHAND_ROOT } from '../root.ts';
import { buildWorkerEnv } from '../terminal/worker-env.ts';


export interface LaunchSpec {
  argv: string[];
  env: Record<string, string>;
}

export interface LaunchOptions {
  /** The environment of the person's dispatch call (API keys, proxies live there). */
  callerEnv?: Record<string, string | undefined>;
  /** Explicit additions (`hand dispatch --env K=V`): applied last, so they win over every default. */
  envAdd?: Record<string, string>;
  /** The daemon's environment (HAND_CLAUDE_BIN chooses another Claude Code build); default the process's. */
  daemonEnv?: Record<string, string | undefined>;
}

/** The kingshand checkout this file belongs to (io/agent/launch.ts → two levels up). */
export { KINGSHAND_ROOT };

/** Claude Code's binary, where its profile reads it (io/agent/claude/binary.ts). */
export { claudeBinary } from './claude/binary.ts';

/**
 * How `agent` is started under `posture`: its profile's argv (io/agent/profiles/), the worker's
 * allow-listed environment. The pinned binary first, so tests and the person run the same version;
 * with none found, the bare program name for the worker's own PATH to resolve.
 */
export function launchSpec(agent: string, opts: LaunchOptions & { posture?: PermissionPosture; where?: WorkerPlace } = {}): LaunchSpec {
  const profile = agentProfile(agent);
  const posture = opts.posture ?? 'off';
  const base = buildWorkerEnv(opts.callerEnv ?? process.env, { agentNames: profile.workerEnv ?? [] });
  // The agent's own per-worker variables over the allow-listed ones; `--env` last, as before.
  const env = { ...base, ...profile.launchEnv?.(posture, opts.where, base), ...opts.envAdd };
  const bin = profile.binary(opts.daemonEnv ?? process.env) ?? agent;
  return { argv: profile.launchArgv(bin, posture, opts.where), env };
}
