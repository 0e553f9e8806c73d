/**
 * `hand hook <event>` (hidden): run by a worker's Claude Code hooks; forwards the payload
 * (./hook.ts, loaded when it runs) and always exits 0.
 */
import { type Command } from 'commander';
import { cliOut, setExitCode } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerHook(program: Command, ctx: CommandContext): void {
  program
    .command('hook', { hidden: true })
    .description("run by a worker's Claude Code hooks: forwards the hook's payload (stdin) to the daemon; always exits 0")
    .argument('<event>', 'the hook event (Notification, Stop, UserPromptSubmit, SessionStart, SessionEnd)')
    .argument('[payload]', "the payload as an argument instead of stdin (Codex CLI's notify command passes its JSON this way)")
    .action(async (event: string, payload: string | undefined, _o, cmd: Command) => {
      // Never fail or hold up Claude Code: whatever happens here, the hook exits 0.
      try {
        const { runHook } = await import('./hook.ts');
        // The process's own start, when this process is the hook's own (a fresh `hand hook`, as the
        // agents run it): a word fired before our last input must read as older than it.
        const startedAt = process.uptime() < 5 ? Math.round(performance.timeOrigin) : undefined;
        const r = await runHook(event, { home: (cmd.optsWithGlobals() as { home?: string }).home, ...(payload !== undefined ? { payload } : {}), ...(startedAt !== undefined ? { startedAt } : {}) });
        if (ctx.json(cmd)) cliOut().write(`${JSON.stringify(r)}\n`);
      } catch {
        // swallowed on purpose (see above)
      }
      setExitCode(0);
    });
}
