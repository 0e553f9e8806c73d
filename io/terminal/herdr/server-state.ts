/**
 * `herdr status --json` → running / stopped / unknown (control-plane §1.4). A probe that failed
 * is never "stopped": a non-zero exit, an empty or unparseable reply, a reply without a `server`
 * object, or a `server` without `running` (a renamed field must not read as stopped) are all
 * `unknown`, with the reason.
 */
import type { ServerState } from '../types.ts';
import type { HerdrRun } from './herdr-cli.ts';

export function serverStateOf(run: HerdrRun): ServerState {
  if (run.exitCode === null) return { state: 'unknown', detail: `herdr status did not run: ${run.spawnError ?? 'unknown reason'}` };
  if (run.exitCode !== 0) {
    return { state: 'unknown', detail: `herdr status exited ${run.exitCode} - ${(run.stderr || run.stdout).trim().slice(0, 200)}` };
  }
  const text = run.stdout.trim();
  if (text === '') return { state: 'unknown', detail: 'herdr status printed nothing' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: 'unknown', detail: `herdr status printed no JSON: ${JSON.stringify(text.slice(0, 120))}` };
  }
  const server = (parsed as { server?: unknown } | null)?.server;
  if (!server || typeof server !== 'object') return { state: 'unknown', detail: 'herdr status reply has no server object' };
  const { running } = server as { running?: unknown };
  if (typeof running !== 'boolean') return { state: 'unknown', detail: 'herdr status reply has no server.running' };
  return running ? { state: 'running' } : { state: 'stopped' };
}
