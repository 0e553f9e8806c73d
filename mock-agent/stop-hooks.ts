/**
 * The mock's Stop hooks, run only with KH_MOCK_STOP_HOOKS=1 (the bench's witness figures): the
 * `Stop` commands of `<cwd>/.claude/settings.local.json` — the file kingshand's seed writes for a
 * worker, with `hand hook Stop` in it — run at a turn's end the way Claude Code 2.1.332 runs them:
 * each through `/bin/sh -c` (the settings format is a shell command line, quoted by the seed),
 * the hook's JSON payload on stdin, all at once, each killed past its timeout. Claude Code keeps
 * its spinner up (`running Stop hook`) until they are done and only then draws the finished turn;
 * the mock does the same (turn-runner.ts). Without the variable the mock runs no hooks at all.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The settings file is the seed's (a few KB); anything larger is not read. */
const MAX_SETTINGS_BYTES = 256 * 1024;
/** Claude Code's default hook timeout (seconds) when an entry names none. */
const DEFAULT_TIMEOUT_S = 60;

interface HookCommand {
  command: string;
  timeoutMs: number;
}

/** The Stop commands of the settings file, or none when it is absent, unreadable or malformed. */
export function stopHookCommands(cwd: string): HookCommand[] {
  let raw: string;
  try {
    raw = readFileSync(join(cwd, '.claude', 'settings.local.json'), 'utf8');
  } catch {
    return [];
  }
  if (raw.length > MAX_SETTINGS_BYTES) return [];
  let settings: unknown;
  try {
    settings = JSON.parse(raw);
  } catch {
    return [];
  }
  const groups = (settings as { hooks?: { Stop?: unknown } } | null)?.hooks?.Stop;
  if (!Array.isArray(groups)) return [];
  const out: HookCommand[] = [];
  for (const group of groups) {
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(hooks)) continue;
    for (const h of hooks as Array<{ type?: unknown; command?: unknown; timeout?: unknown }>) {
      if (h?.type !== 'command' || typeof h.command !== 'string' || h.command === '') continue;
      const seconds = typeof h.timeout === 'number' && h.timeout > 0 ? h.timeout : DEFAULT_TIMEOUT_S;
      out.push({ command: h.command, timeoutMs: seconds * 1000 });
    }
  }
  return out;
}

/** Runs every Stop hook with `payload` on stdin; resolves when all have exited or been killed. */
export function runStopHooks(cwd: string, payload: Record<string, unknown>): Promise<void> {
  const commands = stopHookCommands(cwd);
  const body = JSON.stringify({ hook_event_name: 'Stop', stop_hook_active: false, cwd, ...payload });
  return Promise.all(commands.map((c) => runOne(c, cwd, body))).then(() => undefined);
}

function runOne(hook: HookCommand, cwd: string, body: string): Promise<void> {
  return new Promise((done) => {
    const child = spawn('/bin/sh', ['-c', hook.command], { cwd, stdio: ['pipe', 'ignore', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), hook.timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      done();
    };
    child.once('error', finish);
    child.once('close', finish);
    child.stdin.once('error', () => {});
    child.stdin.end(body);
  });
}
